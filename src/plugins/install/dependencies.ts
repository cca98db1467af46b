/**
 * Plugin dependencies (plugins.md §9): `"name"`, `"name@marketplace"` or `{ name, version?,
 * marketplace? }`, resolved in the declaring plugin's marketplace unless another is named (which
 * that marketplace must allow), with npm-semver ranges checked against the installed version.
 */
export interface Dependency {
  name: string;
  marketplace: string;
  /** Semver range as written; undefined: any version. */
  range?: string;
  id: string;
}

export type DependencyParse = { ok: true; dependencies: Dependency[] } | { ok: false; error: string };

function one(raw: unknown, ownMarketplace: string): Dependency | string {
  let name: string | undefined;
  let marketplace: string | undefined;
  let range: string | undefined;
  if (typeof raw === "string") {
    const at = raw.lastIndexOf("@");
    [name, marketplace] = at > 0 ? [raw.slice(0, at), raw.slice(at + 1)] : [raw, undefined];
  } else if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const record = raw as Record<string, unknown>;
    name = typeof record.name === "string" ? record.name : undefined;
    marketplace = typeof record.marketplace === "string" ? record.marketplace : undefined;
    range = typeof record.version === "string" ? record.version : undefined;
  }
  if (!name) return `dependency ${JSON.stringify(raw)} has no plugin name`;
  const market = marketplace ?? ownMarketplace;
  return { name, marketplace: market, id: `${name}@${market}`, ...(range === undefined ? {} : { range }) };
}

/** The marketplace's `allowCrossMarketplaceDependenciesOn`, strings only. */
export function crossMarketplaceAllowList(raw: Record<string, unknown>): string[] {
  const list = raw.allowCrossMarketplaceDependenciesOn;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
}

/** `allowedCross` undefined: no cross-marketplace check (already done at install). */
export function parseDependencies(raw: readonly unknown[], ownMarketplace: string, allowedCross?: readonly string[]): DependencyParse {
  const dependencies: Dependency[] = [];
  for (const item of raw) {
    const parsed = one(item, ownMarketplace);
    if (typeof parsed === "string") return { ok: false, error: parsed };
    if (allowedCross !== undefined && parsed.marketplace !== ownMarketplace && !allowedCross.includes(parsed.marketplace)) {
      return {
        ok: false,
        error: `cross-marketplace: it depends on ${parsed.id}, but marketplace ${ownMarketplace} does not list ${parsed.marketplace} in allowCrossMarketplaceDependenciesOn`,
      };
    }
    dependencies.push(parsed);
  }
  return { ok: true, dependencies };
}

/** Does `version` satisfy the range? Non-semver versions (commits, `unknown`) never do. */
export function satisfiesRange(version: string, range: string | undefined): boolean {
  if (range === undefined || range.trim() === "" || range.trim() === "*") return true;
  try {
    return Bun.semver.satisfies(version, range);
  } catch {
    return false;
  }
}
