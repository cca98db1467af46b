/**
 * `allowedMcpServers` / `deniedMcpServers` (spec §2.12). Each entry names a server by exactly one
 * of `serverName`, `serverCommand` (the exact argv) or `serverUrl` (a pattern where `*` matches
 * anything). Deny wins. Once the allowlist holds a command entry, stdio servers must match a
 * command entry; once it holds a URL entry, remote servers must match a URL entry; otherwise a
 * server must match by name. An empty allowlist blocks every server; no allowlist allows all.
 * A malformed entry is reported and matches nothing — a deny list with a typo still denies
 * everything its other entries name.
 */
import type { McpProblem, McpServerConfig } from "../types.ts";

type PolicyEntry = { serverName: string } | { serverCommand: string[] } | { serverUrl: string };

export interface PolicyInput {
  allowedMcpServers?: unknown;
  deniedMcpServers?: unknown;
  allowManagedMcpServersOnly?: unknown;
  /** The managed layers' own allowlist, used alone when `allowManagedMcpServersOnly` is set. */
  managedAllowedMcpServers?: unknown;
}

export interface Policy {
  allowed: PolicyEntry[] | undefined;
  denied: PolicyEntry[];
  managedOnly: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function entryOf(raw: unknown): PolicyEntry | undefined {
  if (!isRecord(raw)) return undefined;
  const keys = Object.keys(raw).filter((key) => key === "serverName" || key === "serverCommand" || key === "serverUrl");
  if (keys.length !== 1) return undefined;
  if (typeof raw.serverName === "string") return { serverName: raw.serverName };
  if (Array.isArray(raw.serverCommand) && raw.serverCommand.length > 0 && raw.serverCommand.every((part) => typeof part === "string")) {
    return { serverCommand: raw.serverCommand as string[] };
  }
  if (typeof raw.serverUrl === "string") return { serverUrl: raw.serverUrl };
  return undefined;
}

function listOf(key: string, value: unknown, problems: McpProblem[]): PolicyEntry[] | undefined {
  if (value === undefined) return undefined;
  const file = `settings (${key})`;
  if (!Array.isArray(value)) {
    problems.push({ file, keyPath: key, type: "policy", severity: "error", message: `${key} must be a list of {"serverName"}, {"serverCommand"} or {"serverUrl"} entries; it is read as an empty list` });
    return [];
  }
  const entries: PolicyEntry[] = [];
  value.forEach((raw, index) => {
    const entry = entryOf(raw);
    if (entry) entries.push(entry);
    else {
      const message = `${key}[${index}] ${JSON.stringify(raw)} is not understood: an entry needs exactly one of "serverName" (a string), "serverCommand" (a list of strings) or "serverUrl" (a pattern); fix it`;
      problems.push({ file, keyPath: `${key}[${index}]`, type: "policy", severity: "warning", message });
    }
  });
  return entries;
}

export function readPolicy(input: PolicyInput, problems: McpProblem[]): Policy {
  const managedOnly = input.allowManagedMcpServersOnly === true;
  const allowedRaw = managedOnly ? input.managedAllowedMcpServers : input.allowedMcpServers;
  return {
    allowed: listOf("allowedMcpServers", allowedRaw, problems),
    denied: listOf("deniedMcpServers", input.deniedMcpServers, problems) ?? [],
    managedOnly,
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

export function urlMatches(pattern: string, url: string): boolean {
  return new RegExp(`^${pattern.split("*").map(escapeRegex).join(".*")}$`).test(url);
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

function matches(entry: PolicyEntry, name: string, config: McpServerConfig): boolean {
  if ("serverName" in entry) return entry.serverName === name;
  if ("serverCommand" in entry) return config.type === "stdio" && sameArgv(entry.serverCommand, [config.command, ...config.args]);
  return config.type !== "stdio" && urlMatches(entry.serverUrl, config.url);
}

/** Why the server may not run, or undefined when policy lets it. `config` is the expanded one. */
export function blockedBy(policy: Policy, name: string, config: McpServerConfig): string | undefined {
  if (policy.denied.some((entry) => matches(entry, name, config))) return "blocked by deniedMcpServers in settings";
  const allowed = policy.allowed;
  if (allowed === undefined) return undefined;
  const kind = config.type === "stdio" ? "serverCommand" : "serverUrl";
  const relevant = allowed.some((entry) => kind in entry) ? allowed.filter((entry) => kind in entry) : allowed.filter((entry) => "serverName" in entry);
  if (relevant.some((entry) => matches(entry, name, config))) return undefined;
  const list = policy.managedOnly ? "the managed allowedMcpServers (allowManagedMcpServersOnly)" : "allowedMcpServers in settings";
  return `not in ${list}`;
}
