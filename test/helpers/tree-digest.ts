// What rewind tests compare: every file under a folder with its bytes' hash (a user's `.git`, byte
// for byte), and git run for its output with a throwaway identity.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export function treeDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = Bun.hash(readFileSync(full)).toString(36);
    }
  };
  walk(dir);
  return out;
}

export function gitOutput(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return run.stdout.toString();
}
