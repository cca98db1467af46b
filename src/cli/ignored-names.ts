/**
 * `respectGitignore` for the `@` picker: which of a folder's entries git ignores, asked of the
 * user's own git (their excludes, global ignore file and nested .gitignore files all count). A
 * folder outside a repository, or no git, ignores nothing.
 */
import { join } from "node:path";

/** The names among `names` (entries of `dir`) that git ignores; empty when it cannot tell. */
export function ignoredNames(dir: string, names: readonly string[]): Set<string> {
  if (names.length === 0) return new Set();
  let run: ReturnType<typeof Bun.spawnSync>;
  try {
    run = Bun.spawnSync(["git", "-C", dir, "check-ignore", "-z", "--stdin"], { stdin: Buffer.from(names.map((name) => join(dir, name)).join("\0")), stdout: "pipe", stderr: "ignore" });
  } catch {
    return new Set();
  }
  // 0: some are ignored; 1: none; 128: not a repository (or git failed) — nothing is hidden.
  if (run.exitCode !== 0) return new Set();
  const prefix = `${dir.replace(/\/$/, "")}/`;
  return new Set(
    (run.stdout?.toString() ?? "")
      .split("\0")
      .filter((path) => path !== "")
      .map((path) => (path.startsWith(prefix) ? path.slice(prefix.length) : path)),
  );
}
