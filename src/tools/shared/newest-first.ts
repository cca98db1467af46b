import { stat } from "node:fs/promises";

const STAT_BATCH = 256;

/** Most recently modified first; ties (and unreadable files) in path order, so output is stable. */
export async function newestFirst(paths: readonly string[]): Promise<string[]> {
  const stamped: Array<{ path: string; mtime: number }> = [];
  for (let i = 0; i < paths.length; i += STAT_BATCH) {
    const batch = paths.slice(i, i + STAT_BATCH);
    const mtimes = await Promise.all(batch.map((path) => stat(path).then((stats) => stats.mtimeMs, () => 0)));
    batch.forEach((path, index) => stamped.push({ path, mtime: mtimes[index] ?? 0 }));
  }
  stamped.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return stamped.map((entry) => entry.path);
}
