// What rewind tests compare and wait for: every file under a folder with its bytes' hash (a user's
// `.git`, byte for byte), git run for its output with a throwaway identity, and a turn's end recorded.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { waitFor } from "./scenario.ts";

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

/** Waits until the session has recorded the end of turn `prompt` (hand edits before that would count as the agent's). */
export async function turnRecorded(configDir: string, prompt: number): Promise<void> {
  await waitFor(() => {
    const found = [...new Bun.Glob("*/*/checkpoints.json").scanSync(join(configDir, "projects"))];
    const records = found.flatMap((path) => (JSON.parse(readFileSync(join(configDir, "projects", path), "utf8")) as { checkpoints: Array<{ prompt: number; after?: unknown }> }).checkpoints);
    return records.some((record) => record.prompt === prompt && record.after !== undefined) || undefined;
  }, `the end of turn ${prompt} to be recorded`);
}
