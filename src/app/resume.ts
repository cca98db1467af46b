/**
 * Loads a transcript for `--continue` / `--resume`: rebuilds the messages, answers any tool
 * call a crash left hanging, and says where new records should chain on.
 */
import { join } from "node:path";
import type { AgentEvent } from "../loop/events.ts";
import { answerDanglingToolUses } from "../loop/history.ts";
import type { ContentBlockParam, MessageParam } from "../model/types.ts";
import { projectStateDir, type Environment } from "../settings/paths.ts";
import { activeChain, rebuildMessages } from "../store/rebuild.ts";
import { findTranscript, findTranscriptsByName, isSessionId, latestTranscript, listSessions, type SessionSummary } from "../store/sessions.ts";
import { readTranscript } from "../store/transcript.ts";
import { FatalError } from "../util/errors.ts";

export type ResumeRequest = { kind: "continue" } | { kind: "id"; id: string };

export interface Resumed {
  path: string;
  sessionId: string;
  model: string | undefined;
  messages: MessageParam[];
  leafUuid: string | null;
  /** Results written on resume for tool calls the previous process never answered. */
  repairs: Extract<AgentEvent, { type: "tool_results" }> | undefined;
}

function resultIds(messages: readonly MessageParam[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") ids.add(block.tool_use_id);
  }
  return ids;
}

export function loadResumed(env: Environment, stateDir: string, request: ResumeRequest): Resumed {
  const path =
    request.kind === "continue"
      ? latestTranscript(stateDir)
      : isSessionId(request.id)
        ? findTranscript(join(env.configDir, "projects"), stateDir, request.id)
        : byName(join(env.configDir, "projects"), stateDir, request.id);
  if (!path) {
    throw request.kind === "continue"
      ? new FatalError("session_not_found", "No conversation found to continue in this directory.")
      : new FatalError("session_not_found", `No conversation found with session ID: ${request.id}`);
  }
  const parsed = readTranscript(path);
  const rebuilt = rebuildMessages(parsed.records);
  const repaired = answerDanglingToolUses(rebuilt);
  const before = resultIds(rebuilt);
  const added: ContentBlockParam[] = [];
  for (const message of repaired) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result" && !before.has(block.tool_use_id)) added.push(block);
  }
  const chain = activeChain(parsed.records);
  const leaf = chain[chain.length - 1];
  const sessionId = parsed.header?.sessionId ?? path.slice(path.lastIndexOf("/") + 1, -".jsonl".length);
  return {
    path,
    sessionId,
    model: parsed.header?.model,
    messages: repaired,
    leafUuid: typeof leaf?.uuid === "string" ? leaf.uuid : null,
    repairs: added.length > 0 ? { type: "tool_results", message: { role: "user", content: added }, data: {} } : undefined,
  };
}

/** `--resume NAME`: the one session of that name (`-n`); two of the same name are an error naming both. */
function byName(projectsDir: string, stateDir: string, name: string): string | undefined {
  const found = findTranscriptsByName(projectsDir, stateDir, name);
  if (found.length > 1) {
    const ids = found.map((path) => path.slice(path.lastIndexOf("/") + 1, -".jsonl".length));
    throw new FatalError("session_not_found", `More than one conversation is named "${name}": ${ids.join(", ")}. Resume one by its session ID.`);
  }
  return found[0];
}

export type { SessionSummary };

/** This project's sessions, newest first (for `/resume`). */
export function listProjectSessions(env: Environment): SessionSummary[] {
  return listSessions(projectStateDir(env.configDir, env.cwd));
}
