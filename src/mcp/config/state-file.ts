/**
 * clew's own state file, `<configDir>/clew.json`, shaped like Claude Code's `~/.claude.json`:
 * top-level `mcpServers` are user-scope servers, `projects["<abs path>"].mcpServers` local-scope
 * ones. The file may hold other keys (written by other parts of clew or copied over from Claude
 * Code); every write keeps them and replaces the file in one step.
 */
import { join } from "node:path";
import { writeFileAtomicSync } from "../../util/atomic-write.ts";
import { FatalError } from "../../util/errors.ts";
import { readJsonFile, type JsonRead } from "./json-file.ts";

export type StateScope = "user" | "local";

export function stateFilePath(configDir: string): string {
  return join(configDir, "clew.json");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface StateFile {
  file: string;
  read: JsonRead;
  /** The whole document (an empty one when the file is missing). */
  data: Record<string, unknown>;
}

export function readStateFile(configDir: string): StateFile {
  const file = stateFilePath(configDir);
  const read = readJsonFile(file);
  return { file, read, data: read.kind === "ok" && isRecord(read.value) ? read.value : {} };
}

/** The servers object of a scope as written (undefined when the scope has none). */
export function scopeServers(state: StateFile, scope: StateScope, projectDir: string): unknown {
  if (scope === "user") return state.data.mcpServers;
  const projects = state.data.projects;
  if (!isRecord(projects)) return undefined;
  const project = projects[projectDir];
  return isRecord(project) ? project.mcpServers : undefined;
}

/** The key path of a scope's servers object, for messages. */
export function scopeBase(scope: StateScope, projectDir: string): string {
  return scope === "user" ? "mcpServers" : `projects[${JSON.stringify(projectDir)}].mcpServers`;
}

function refuseBroken(state: StateFile): void {
  if (state.read.kind === "broken") {
    const at = state.read.line === undefined ? "" : ` at line ${state.read.line}, column ${state.read.column ?? 1}`;
    throw new FatalError("config", `error: ${state.file} is not valid JSON${at} (${state.read.message}).`, "Fix or move the file aside; clew does not overwrite a file it cannot read.");
  }
  if (state.read.kind === "ok" && !isRecord(state.read.value)) {
    throw new FatalError("config", `error: ${state.file} must hold a JSON object.`, "Fix or move the file aside; clew does not overwrite a file it cannot read.");
  }
}

/**
 * Applies `change` to the servers object of a scope (created when missing) and writes the file
 * back. Returns whatever `change` returns. A file that does not parse is never overwritten.
 */
export function updateScopeServers<T>(configDir: string, scope: StateScope, projectDir: string, change: (servers: Record<string, unknown>) => T): T {
  const state = readStateFile(configDir);
  refuseBroken(state);
  const data = state.data;
  let holder: Record<string, unknown>;
  if (scope === "user") holder = data;
  else {
    if (!isRecord(data.projects)) data.projects = {};
    const projects = data.projects as Record<string, unknown>;
    if (!isRecord(projects[projectDir])) projects[projectDir] = {};
    holder = projects[projectDir] as Record<string, unknown>;
  }
  if (!isRecord(holder.mcpServers)) holder.mcpServers = {};
  const result = change(holder.mcpServers as Record<string, unknown>);
  writeFileAtomicSync(state.file, `${JSON.stringify(data, null, 2)}\n`);
  return result;
}
