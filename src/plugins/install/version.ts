/**
 * A plugin's version (plugins.md §10.1): the manifest's `version`, else the marketplace entry's,
 * else the first 12 hex of the commit it was fetched at, else `unknown`.
 */
export interface VersionInputs {
  manifestVersion?: string | undefined;
  entryVersion?: string | undefined;
  commit?: string | undefined;
}

export function resolveVersion(inputs: VersionInputs): string {
  const pick = (value: string | undefined) => (value !== undefined && value.trim() !== "" ? value.trim() : undefined);
  return pick(inputs.manifestVersion) ?? pick(inputs.entryVersion) ?? (inputs.commit ? inputs.commit.slice(0, 12) : "unknown");
}
