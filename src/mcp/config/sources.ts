/**
 * Where server definitions are read from (spec §2.1), each source as the raw `mcpServers` object
 * of one file or flag, strongest first. Nothing here validates an entry; a file that is broken or
 * shaped wrongly becomes a problem and contributes nothing, and the other sources still load.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { McpProblem, McpScope } from "../types.ts";
import { parseJsonText, readJsonFile, type JsonRead } from "./json-file.ts";
import { readStateFile, scopeBase, scopeServers, type StateFile } from "./state-file.ts";

export interface RawSource {
  scope: McpScope;
  /** File path, or `--mcp-config` for an inline JSON value. */
  origin: string;
  /** Key path of `servers`, for messages (`mcpServers`, `projects["/p"].mcpServers`). */
  base: string;
  servers: Record<string, unknown>;
  /** Project sources: the folder holding the `.mcp.json` (approvals are remembered per folder). */
  folder?: string;
}

export const MANAGED_FILE = "managed-mcp.json";
export const PROJECT_FILE = ".mcp.json";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonProblem(origin: string, read: Extract<JsonRead, { kind: "broken" }>, what: string): McpProblem {
  const at = read.line === undefined ? "" : ` at line ${read.line}, column ${read.column ?? 1}`;
  return {
    file: origin,
    ...(read.line === undefined ? {} : { line: read.line, column: read.column ?? 1 }),
    type: "json",
    severity: "error",
    message: `${what} is not valid JSON${at}: ${read.message}; none of its MCP servers load until it is fixed`,
  };
}

/** The `mcpServers` object of a `{ "mcpServers": { … } }` document. */
function serversOf(document: unknown, origin: string, base: string, problems: McpProblem[]): Record<string, unknown> | undefined {
  if (!isRecord(document)) {
    problems.push({ file: origin, type: "invalid_config", severity: "error", message: `${origin} must hold a JSON object like {"mcpServers": {…}}; none of its servers load` });
    return undefined;
  }
  const servers = document.mcpServers;
  if (servers === undefined) return undefined;
  if (!isRecord(servers)) {
    problems.push({ file: origin, keyPath: base, type: "invalid_config", severity: "error", message: `${base} must be an object mapping server names to definitions; none of its servers load` });
    return undefined;
  }
  return servers;
}

function fileSource(scope: McpScope, file: string, problems: McpProblem[], what: string, folder?: string): RawSource | "missing" | undefined {
  const read = readJsonFile(file);
  if (read.kind === "missing") return "missing";
  if (read.kind === "broken") {
    problems.push(jsonProblem(file, read, what));
    return undefined;
  }
  const servers = serversOf(read.value, file, "mcpServers", problems);
  return servers ? { scope, origin: file, base: "mcpServers", servers, ...(folder ? { folder } : {}) } : undefined;
}

/**
 * The managed file of the first managed directory that has one. `present` is true even when the
 * file is broken: a managed configuration that cannot be read still shuts every other source out.
 */
export function managedSource(managedDirs: readonly string[], problems: McpProblem[]): { present: boolean; source?: RawSource } {
  for (const dir of managedDirs) {
    const file = join(dir, MANAGED_FILE);
    const found = fileSource("managed", file, problems, "The managed MCP configuration");
    if (found === "missing") continue;
    return found ? { present: true, source: found } : { present: true };
  }
  return { present: false };
}

/** `--mcp-config` values: a JSON document when it starts with `{`, else a file (relative to cwd). */
export function cliSources(values: readonly string[], cwd: string, problems: McpProblem[]): RawSource[] {
  const sources: RawSource[] = [];
  for (const value of values) {
    if (value.trimStart().startsWith("{")) {
      const read = parseJsonText(value);
      if (read.kind === "broken") problems.push(jsonProblem("--mcp-config", read, "The --mcp-config value"));
      else if (read.kind === "ok") {
        const servers = serversOf(read.value, "--mcp-config", "mcpServers", problems);
        if (servers) sources.push({ scope: "cli", origin: "--mcp-config", base: "mcpServers", servers });
      }
      continue;
    }
    const file = isAbsolute(value) ? value : resolve(cwd, value);
    const found = fileSource("cli", file, problems, `The --mcp-config file ${file}`);
    if (found === "missing") {
      problems.push({ file, type: "invalid_config", severity: "error", message: `--mcp-config: file not found: ${file}; pass an existing file or a JSON string` });
    } else if (found) sources.push(found);
  }
  return sources;
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * `.mcp.json` in the start directory, then in each parent up to the repository root, nearest
 * first (so the nearest definition of a name wins). The spec marks the walk-up as unconfirmed for
 * Claude Code; walking only up to the repository root keeps a stray file above the project out.
 */
export function projectSources(cwd: string, projectRoot: string | undefined, problems: McpProblem[]): RawSource[] {
  const start = resolve(cwd);
  const stop = projectRoot !== undefined && isInside(start, resolve(projectRoot)) ? resolve(projectRoot) : start;
  const sources: RawSource[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    const found = fileSource("project", join(dir, PROJECT_FILE), problems, `The project MCP configuration ${join(dir, PROJECT_FILE)}`, dir);
    if (found && found !== "missing") sources.push(found);
    if (dir === stop || dirname(dir) === dir) break;
  }
  return sources;
}

/** The local and user scopes of clew.json (read once for both). */
export function stateSources(configDir: string, projectDir: string, problems: McpProblem[]): { local?: RawSource; user?: RawSource; state: StateFile } {
  const state = readStateFile(configDir);
  if (state.read.kind === "broken") {
    problems.push(jsonProblem(state.file, state.read, `clew's state file ${state.file}`));
    return { state };
  }
  if (state.read.kind === "missing") return { state };
  if (!isRecord(state.read.value)) {
    problems.push({ file: state.file, type: "invalid_config", severity: "error", message: `${state.file} must hold a JSON object; its user and local MCP servers do not load` });
    return { state };
  }
  const pick = (scope: "local" | "user"): RawSource | undefined => {
    const servers = scopeServers(state, scope, projectDir);
    if (servers === undefined) return undefined;
    const base = scopeBase(scope, projectDir);
    if (!isRecord(servers)) {
      problems.push({ file: state.file, keyPath: base, type: "invalid_config", severity: "error", message: `${base} must be an object mapping server names to definitions; none of its servers load` });
      return undefined;
    }
    return { scope, origin: state.file, base, servers };
  };
  const local = pick("local");
  const user = pick("user");
  return { state, ...(local ? { local } : {}), ...(user ? { user } : {}) };
}
