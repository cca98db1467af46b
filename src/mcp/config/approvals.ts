/**
 * Whether a project (`.mcp.json`) server may start (spec §2.4). The user's own answers are kept
 * in `<configDir>/mcp-approvals.json`, per folder (the one holding the `.mcp.json`), server name
 * and definition hash: a changed definition is a new question. Settings come next to it:
 * `disabledMcpjsonServers` rejects and beats everything; `enableAllProjectMcpServers` and
 * `enabledMcpjsonServers` approve — they arrive already filtered by settings/, which drops a
 * repository's approval of itself in an untrusted folder. A store that can't be read counts as
 * "nothing remembered": that only brings a question back, never starts a server.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeFileAtomicSync } from "../../util/atomic-write.ts";
import type { McpApproval } from "../types.ts";

export type ProjectChoice = "approved" | "rejected";

interface RememberedChoice {
  choice: ProjectChoice;
  hash: string;
  at: string;
}

/** folder → server name → the last answer. */
export type ProjectChoices = Record<string, Record<string, RememberedChoice>>;

export function approvalsPath(configDir: string): string {
  return join(configDir, "mcp-approvals.json");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readProjectChoices(configDir: string): ProjectChoices {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(approvalsPath(configDir), "utf8"));
  } catch {
    return {};
  }
  const folders = isRecord(raw) ? raw.folders : undefined;
  const store: ProjectChoices = {};
  if (!isRecord(folders)) return store;
  for (const [folder, servers] of Object.entries(folders)) {
    if (!isRecord(servers)) continue;
    const kept: Record<string, RememberedChoice> = {};
    for (const [name, entry] of Object.entries(servers)) {
      if (!isRecord(entry) || typeof entry.hash !== "string") continue;
      if (entry.choice !== "approved" && entry.choice !== "rejected") continue;
      kept[name] = { choice: entry.choice, hash: entry.hash, at: typeof entry.at === "string" ? entry.at : "" };
    }
    store[folder] = kept;
  }
  return store;
}

function writeProjectChoices(configDir: string, store: ProjectChoices): void {
  writeFileAtomicSync(approvalsPath(configDir), `${JSON.stringify({ folders: store }, null, 2)}\n`);
}

/** The remembered answer for this exact definition, if any. */
export function rememberedChoice(store: ProjectChoices, folder: string, server: string, hash: string): ProjectChoice | undefined {
  const entry = store[resolve(folder)]?.[server];
  return entry && entry.hash === hash ? entry.choice : undefined;
}

export function rememberProjectChoice(configDir: string, folder: string, server: string, hash: string, choice: ProjectChoice, now: Date = new Date()): void {
  const store = readProjectChoices(configDir);
  const key = resolve(folder);
  store[key] = { ...store[key], [server]: { choice, hash, at: now.toISOString() } };
  writeProjectChoices(configDir, store);
}

/** Forgets every answer given for `folder`; returns how many there were. */
export function resetProjectChoices(configDir: string, folder: string): number {
  const store = readProjectChoices(configDir);
  const key = resolve(folder);
  const count = Object.keys(store[key] ?? {}).length;
  if (count === 0) return 0;
  delete store[key];
  writeProjectChoices(configDir, store);
  return count;
}

export interface ApprovalSettings {
  enableAllProjectMcpServers?: unknown;
  enabledMcpjsonServers?: unknown;
  disabledMcpjsonServers?: unknown;
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** The approval of one project server, from settings, the remembered answers and trust. */
export function projectApproval(
  server: { name: string; hash: string; folder: string },
  settings: ApprovalSettings,
  store: ProjectChoices,
  trusted: boolean,
): McpApproval {
  if (names(settings.disabledMcpjsonServers).includes(server.name)) return "rejected";
  if (settings.enableAllProjectMcpServers === true || names(settings.enabledMcpjsonServers).includes(server.name)) return "approved";
  const remembered = rememberedChoice(store, server.folder, server.name, server.hash);
  if (remembered) return remembered;
  return trusted ? "pending" : "untrusted";
}
