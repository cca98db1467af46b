/**
 * A plugin's MCP and LSP server definitions (plugins.md §6.5, §6.6): the root `.mcp.json` /
 * `.lsp.json` and the manifest's `mcpServers` / `lspServers` (paths or inline maps). Both shapes
 * of `.mcp.json` are real — wrapped in `mcpServers` (documented) and bare (official `github`,
 * `firebase`, …): the bare map is accepted with a warning. Whether a manifest value replaces the
 * default file is unconfirmed, so both load, the manifest's definition winning a name clash.
 */
import { join, relative } from "node:path";
import { isDotRelative, isObject, type ProblemList, readJson, realPath, resolvePluginPath } from "./plugin-files.ts";

export type ServerKind = "mcp" | "lsp";

export type ServerMap = Record<string, { file: string; config: unknown }>;

export interface ServerInput {
  kind: ServerKind;
  root: string;
  declared: ReadonlyArray<{ value: unknown; file: string; field: string }>;
  label: string;
}

const DEFAULT_FILE: Record<ServerKind, string> = { mcp: ".mcp.json", lsp: ".lsp.json" };
const FIELD: Record<ServerKind, string> = { mcp: "mcpServers", lsp: "lspServers" };

/** An MCP file's server map: wrapped or (warned) bare. */
function mcpMap(value: Record<string, unknown>, file: string, label: string, shown: string, problems: ProblemList): Record<string, unknown> {
  if (isObject(value.mcpServers)) return value.mcpServers;
  if (value.mcpServers !== undefined) {
    problems.add("error", "mcp-malformed", file, `${label} ${shown}: "mcpServers" must be an object of server name to definition; no servers load from this file.`, "mcpServers");
    return {};
  }
  if (Object.keys(value).length > 0) problems.add("warning", "mcp-bare-map", file, `${label} ${shown}: server map without the "mcpServers" wrapper (tolerated); wrap it as {"mcpServers": {…}} for other tools.`);
  return value;
}

function checkServer(kind: ServerKind, name: string, config: unknown, file: string, label: string, problems: ProblemList, fieldBase: string): boolean {
  const field = `${fieldBase}.${name}`;
  if (!isObject(config)) {
    problems.add("error", `${kind}-server-invalid`, file, `${label}: ${kind.toUpperCase()} server "${name}" must be an object; it is skipped.`, field);
    return false;
  }
  if (kind === "mcp" && typeof config.command !== "string" && typeof config.url !== "string") {
    problems.add("error", "mcp-server-invalid", file, `${label}: MCP server "${name}" needs a "command" (stdio) or a "url" (http, sse, ws); it is skipped.`, field);
    return false;
  }
  if (kind === "lsp") {
    const missing = ["command", "extensionToLanguage"].filter((key) => (key === "command" ? typeof config.command !== "string" : !isObject(config.extensionToLanguage)));
    if (missing.length > 0) {
      problems.add("error", "lsp-server-invalid", file, `${label}: LSP server "${name}" lacks ${missing.map((key) => `"${key}"`).join(" and ")}; it is skipped.`, field);
      return false;
    }
  }
  return true;
}

/** `fieldBase`: where the map sits in its file (`mcpServers` in a file, `plugins[3].lspServers` inline in an entry). */
function addServers(kind: ServerKind, map: Record<string, unknown>, file: string, label: string, servers: ServerMap, problems: ProblemList, fieldBase: string = FIELD[kind]): void {
  for (const [name, config] of Object.entries(map)) {
    if (checkServer(kind, name, config, file, label, problems, fieldBase)) servers[name] = { file, config };
  }
}

function readServerFile(kind: ServerKind, file: string, shown: string, label: string, servers: ServerMap, problems: ProblemList, field?: string): void {
  const read = readJson(file);
  if (read.kind === "missing") {
    if (field !== undefined) problems.add("error", "path-not-found", file, `${label}: ${FIELD[kind]} file "${shown}" does not exist; create it or remove it from "${FIELD[kind]}".`, field);
    return;
  }
  if (read.kind === "invalid") {
    problems.add("error", `${kind}-json-error`, file, `${label} ${shown}: not valid JSON (${read.message}); no ${kind.toUpperCase()} servers load from it until the syntax is fixed.`);
    return;
  }
  if (!isObject(read.value)) {
    problems.add("error", `${kind}-malformed`, file, `${label} ${shown}: must be a JSON object of server name to definition; no servers load from it.`);
    return;
  }
  addServers(kind, kind === "mcp" ? mcpMap(read.value, file, label, shown, problems) : read.value, file, label, servers, problems);
}

export function readPluginServers(input: ServerInput, problems: ProblemList): ServerMap {
  const servers: ServerMap = {};
  const defaultFile = join(input.root, DEFAULT_FILE[input.kind]);
  readServerFile(input.kind, defaultFile, DEFAULT_FILE[input.kind], input.label, servers, problems);
  const seen = new Set([realPath(defaultFile)]);
  // Each item of a list may be a path or an inline map (a list mixing both is tolerated).
  for (const { value, file, field } of input.declared.flatMap((declared) => (Array.isArray(declared.value) ? declared.value.map((value) => ({ ...declared, value })) : [declared]))) {
    if (isObject(value)) {
      const inline = input.kind === "mcp" && Object.keys(value).length === 1 && isObject(value.mcpServers) ? value.mcpServers : value;
      addServers(input.kind, inline, file, input.label, servers, problems, field);
      continue;
    }
    const paths = typeof value === "string" ? [value] : undefined;
    if (paths === undefined) {
      problems.add("error", "manifest-invalid-field", file, `${input.label}: "${FIELD[input.kind]}" must be a path, a list of paths or an inline server map; it is ignored.`, field);
      continue;
    }
    for (const written of paths) {
      const resolved = resolvePluginPath(input.root, written);
      if (!resolved.ok) {
        problems.add("error", "path-invalid", file, `${input.label}: ${FIELD[input.kind]} ${resolved.message}; the file is not loaded.`, field);
        continue;
      }
      if (!isDotRelative(written)) problems.add("warning", "path-not-dot-relative", file, `${input.label}: ${FIELD[input.kind]} path "${written}" should start with "./".`, field);
      const real = realPath(resolved.path);
      if (seen.has(real)) continue;
      seen.add(real);
      readServerFile(input.kind, resolved.path, relative(input.root, resolved.path) || written, input.label, servers, problems, field);
    }
  }
  return servers;
}
