/**
 * Imports a module the binary carries as a file rather than as bundled code (see
 * scripts/cold-modules.ts): gzip-compressed, it is unpacked in memory and imported from a blob URL;
 * a plain file — and every run from source — is imported from its path.
 */
export async function importEmbedded(path: string): Promise<unknown> {
  const bytes = await Bun.file(path).bytes();
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return import(path);
  const url = URL.createObjectURL(new Blob([Bun.gunzipSync(bytes)], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
