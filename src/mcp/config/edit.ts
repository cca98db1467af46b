/**
 * Adding and removing server definitions, for `clew mcp add|add-json|remove`: local and user
 * scopes live in clew.json, the project scope in `.mcp.json` of the current directory. Other keys
 * of either file are kept; a file that does not parse is never overwritten.
 */
import { join } from "node:path";
import { writeFileAtomicSync } from "../../util/atomic-write.ts";
import { FatalError } from "../../util/errors.ts";
import { readJsonFile } from "./json-file.ts";
import { PROJECT_FILE } from "./sources.ts";
import { readStateFile, scopeServers, updateScopeServers } from "./state-file.ts";

export type EditScope = "local" | "project" | "user";
export const EDIT_SCOPES: readonly EditScope[] = ["local", "user", "project"];

export interface EditPlace {
  configDir: string;
  cwd: string;
  /** The key of the local scope in clew.json (the project directory). */
  projectDir: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function projectFilePath(cwd: string): string {
  return join(cwd, PROJECT_FILE);
}

function updateProjectFile<T>(cwd: string, change: (servers: Record<string, unknown>) => T): T {
  const file = projectFilePath(cwd);
  const read = readJsonFile(file);
  if (read.kind === "broken" || (read.kind === "ok" && !isRecord(read.value))) {
    const at = read.kind === "broken" && read.line !== undefined ? ` at line ${read.line}, column ${read.column ?? 1}` : "";
    throw new FatalError("config", `error: ${file} is not a valid MCP configuration${at}.`, "Fix or move the file aside; clew does not overwrite a file it cannot read.");
  }
  const data = read.kind === "ok" && isRecord(read.value) ? read.value : {};
  if (!isRecord(data.mcpServers)) data.mcpServers = {};
  const result = change(data.mcpServers as Record<string, unknown>);
  writeFileAtomicSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return result;
}

function update<T>(place: EditPlace, scope: EditScope, change: (servers: Record<string, unknown>) => T): T {
  if (scope === "project") return updateProjectFile(place.cwd, change);
  return updateScopeServers(place.configDir, scope, place.projectDir, change);
}

/** The file a scope is written to. */
export function scopeFile(place: EditPlace, scope: EditScope): string {
  return scope === "project" ? projectFilePath(place.cwd) : join(place.configDir, "clew.json");
}

/** Writes a new definition; a name the scope already has is refused (Claude Code's message). */
export function addServerDefinition(place: EditPlace, scope: EditScope, name: string, definition: Record<string, unknown>): string {
  update(place, scope, (servers) => {
    if (Object.hasOwn(servers, name)) throw new FatalError("usage", `MCP server ${name} already exists in ${scope} config`);
    servers[name] = definition;
  });
  return scopeFile(place, scope);
}

export interface FoundDefinition {
  scope: EditScope;
  file: string;
  definition: unknown;
}

/** Every editable scope that defines `name`, strongest first (local, project, user). */
export function findDefinitions(place: EditPlace, name: string): FoundDefinition[] {
  const found: FoundDefinition[] = [];
  const state = readStateFile(place.configDir);
  const local = scopeServers(state, "local", place.projectDir);
  if (isRecord(local) && Object.hasOwn(local, name)) found.push({ scope: "local", file: state.file, definition: local[name] });
  const project = readJsonFile(projectFilePath(place.cwd));
  const projectServers = project.kind === "ok" && isRecord(project.value) ? project.value.mcpServers : undefined;
  if (isRecord(projectServers) && Object.hasOwn(projectServers, name)) {
    found.push({ scope: "project", file: projectFilePath(place.cwd), definition: projectServers[name] });
  }
  const user = scopeServers(state, "user", place.projectDir);
  if (isRecord(user) && Object.hasOwn(user, name)) found.push({ scope: "user", file: state.file, definition: user[name] });
  return found;
}

/**
 * Removes `name` from `scope`, or — without a scope — from the one scope that has it; a name in
 * several scopes needs `-s` so the wrong one is never deleted.
 */
export function removeServerDefinition(place: EditPlace, name: string, scope?: EditScope): FoundDefinition {
  const found = findDefinitions(place, name);
  const target = scope === undefined ? found : found.filter((item) => item.scope === scope);
  if (target.length === 0) {
    throw new FatalError("usage", scope === undefined ? `No MCP server found with name: ${name}` : `No ${scope} MCP server found with name: ${name}`);
  }
  if (target.length > 1) {
    const scopes = target.map((item) => item.scope).join(", ");
    throw new FatalError(
      "usage",
      `MCP server "${name}" exists in multiple scopes: ${scopes}`,
      `Remove it from one with: clew mcp remove ${name} -s <scope> (one of ${scopes})`,
    );
  }
  const [item] = target as [FoundDefinition];
  update(place, item.scope, (servers) => {
    delete servers[name];
  });
  return item;
}
