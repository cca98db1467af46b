/** Finds transcripts: the newest for a project directory, or one by id across all projects. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isSessionId(value: string): boolean {
  return UUID.test(value);
}

export function transcriptPath(projectStateDir: string, sessionId: string): string {
  return join(projectStateDir, `${sessionId}.jsonl`);
}

/** Newest transcript (by modification time) in one project's state directory. */
export function latestTranscript(projectStateDir: string): string | undefined {
  if (!existsSync(projectStateDir)) return undefined;
  let best: { path: string; mtime: number } | undefined;
  for (const name of readdirSync(projectStateDir)) {
    if (!name.endsWith(".jsonl") || !isSessionId(name.slice(0, -6))) continue;
    const path = join(projectStateDir, name);
    const mtime = statSync(path).mtimeMs;
    if (!best || mtime > best.mtime) best = { path, mtime };
  }
  return best?.path;
}

/** The transcript for `sessionId`: this project first, then every other project. */
export function findTranscript(projectsDir: string, projectStateDir: string, sessionId: string): string | undefined {
  const local = transcriptPath(projectStateDir, sessionId);
  if (existsSync(local)) return local;
  if (!existsSync(projectsDir)) return undefined;
  for (const project of readdirSync(projectsDir)) {
    const candidate = join(projectsDir, project, `${sessionId}.jsonl`);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
