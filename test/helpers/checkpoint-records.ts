// The checkpoint records a session wrote under a config folder (every project's, every session's).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface StoredRecord {
  prompt: number;
  before: Record<string, string>;
  after?: Record<string, string>;
}

export function records(configDir: string): StoredRecord[] {
  const projects = join(configDir, "projects");
  if (!existsSync(projects)) return [];
  return [...new Bun.Glob("*/*/checkpoints.json").scanSync(projects)].flatMap((path) => (JSON.parse(readFileSync(join(projects, path), "utf8")) as { checkpoints: StoredRecord[] }).checkpoints);
}
