/** Finds transcripts: the newest for a project directory, or one by id across all projects. */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
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
  const found: Array<{ path: string; mtime: number }> = [];
  for (const name of readdirSync(projectStateDir)) {
    if (!name.endsWith(".jsonl") || !isSessionId(name.slice(0, -6))) continue;
    const path = join(projectStateDir, name);
    found.push({ path, mtime: statSync(path).mtimeMs });
  }
  found.sort((a, b) => b.mtime - a.mtime);
  // A session that never got a prompt (a run refused before its first request) is no conversation
  // to continue: the newest one that has a prompt is, and only without any does the newest count.
  return (found.find((candidate) => headOf(candidate.path).firstPrompt !== "") ?? found[0])?.path;
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

/**
 * Transcripts whose title (`-n NAME`, a `custom-title` record near the top) is `name`: this
 * project's first; only when it has none, every other project's. Newest first.
 */
export function findTranscriptsByName(projectsDir: string, projectStateDir: string, name: string): string[] {
  const titled = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((file) => file.endsWith(".jsonl") && isSessionId(file.slice(0, -6)))
          .map((file) => join(dir, file))
          .filter((path) => headOf(path).title === name)
      : [];
  const local = titled(projectStateDir);
  const found = local.length > 0 || !existsSync(projectsDir) ? local : readdirSync(projectsDir).flatMap((project) => titled(join(projectsDir, project)));
  return found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

export interface SessionSummary {
  sessionId: string;
  path: string;
  modifiedMs: number;
  /** The first thing the user typed, for pickers (empty when the session has no prompt yet). */
  firstPrompt: string;
  /** `-n NAME`, when the session was given one. */
  title?: string;
}

/** The first prompt and the title, from the transcript's head. */
function headOf(path: string): { firstPrompt: string; title?: string } {
  // The first prompt is near the top; reading a bounded head keeps listing many sessions cheap.
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(64 * 1024);
  const length = readSync(fd, buffer, 0, buffer.length, 0);
  closeSync(fd);
  const head = buffer.subarray(0, length).toString("utf8");
  let title: string | undefined;
  for (const line of head.split("\n")) {
    let record: { type?: unknown; isMeta?: unknown; customTitle?: unknown; message?: { content?: unknown } };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (record.type === "custom-title" && typeof record.customTitle === "string") title = record.customTitle;
    if (record.type !== "user" || record.isMeta) continue;
    const content = record.message?.content;
    const text = typeof content === "string" ? content : Array.isArray(content) ? (content[0] as { text?: unknown } | undefined)?.text : undefined;
    if (typeof text === "string" && !text.startsWith("<system-reminder>")) return { firstPrompt: text, ...(title !== undefined ? { title } : {}) };
  }
  return { firstPrompt: "", ...(title !== undefined ? { title } : {}) };
}

/** This project's sessions, newest first. */
export function listSessions(projectStateDir: string): SessionSummary[] {
  if (!existsSync(projectStateDir)) return [];
  return readdirSync(projectStateDir)
    .filter((name) => name.endsWith(".jsonl") && isSessionId(name.slice(0, -6)))
    .map((name) => {
      const path = join(projectStateDir, name);
      const head = headOf(path);
      return { sessionId: name.slice(0, -6), path, modifiedMs: statSync(path).mtimeMs, firstPrompt: head.firstPrompt, ...(head.title !== undefined ? { title: head.title } : {}) };
    })
    .sort((a, b) => b.modifiedMs - a.modifiedMs);
}
