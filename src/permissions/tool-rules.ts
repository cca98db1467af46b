/**
 * Which rules concern which tool, and the small matchers that need no parsing: WebFetch hosts
 * (spec §4.5), `Tool(param:value)` input fields, Agent types and Skill names (spec §4.6).
 */
import { matchCommandPattern } from "./bash-rules.ts";
import { canonicalToolName, toolNameMatches, type PermissionRule } from "./rules.ts";
import type { RuleKind } from "./types.ts";

/** Tools Read(path) rules govern. */
export const READ_TOOLS: ReadonlySet<string> = new Set(["Read", "Grep", "Glob", "LSP", "NotebookRead"]);
/** Tools Edit(path) rules govern. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "NotebookEdit", "MultiEdit"]);
/** Tools Bash(command) rules govern. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(["Bash", "Monitor"]);

/**
 * Whether `rule` is about calls of `toolName` at all. Families follow the spec: Read rules cover
 * Grep/Glob/LSP, Edit rules cover Write/NotebookEdit; a Read deny (or ask) also blocks edits of
 * the same paths, and an Edit allow also grants reading them.
 */
export function ruleConcernsTool(rule: PermissionRule, toolName: string): boolean {
  const tool = canonicalToolName(toolName);
  const kind: RuleKind = rule.kind;
  switch (rule.target.kind) {
    case "command":
      return rule.tool === "Bash" ? SHELL_TOOLS.has(tool) : rule.tool === tool;
    case "path":
      if (rule.tool === "Read") return READ_TOOLS.has(tool) || (kind !== "allow" && EDIT_TOOLS.has(tool));
      return EDIT_TOOLS.has(tool) || (kind === "allow" && READ_TOOLS.has(tool));
    case "domain":
      return tool === "WebFetch";
    case "name":
      return rule.tool === tool;
    case "param":
      return toolNameMatches(rule.tool, tool);
    case "any":
      if (toolNameMatches(rule.tool, tool)) return true;
      if (rule.tool === "Bash") return SHELL_TOOLS.has(tool);
      if (rule.tool === "Read") return READ_TOOLS.has(tool) || (kind !== "allow" && EDIT_TOOLS.has(tool));
      // A bare Edit allow approves edits, not reads everywhere.
      if (rule.tool === "Edit") return EDIT_TOOLS.has(tool);
      return false;
  }
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "s");
}

/** `Tool(param:value)`: a top-level scalar field equal to the value (`*` wildcards); absent fields never match. */
export function paramMatches(param: string, value: string, input: unknown): boolean {
  if (typeof input !== "object" || input === null) return false;
  const field: unknown = (input as Record<string, unknown>)[param];
  if (typeof field !== "string" && typeof field !== "number" && typeof field !== "boolean") return false;
  return wildcard(value).test(String(field));
}

interface HostPort {
  host: string;
  port?: string;
}

function splitHostPort(text: string): HostPort {
  const lower = text.toLowerCase();
  const bracket = /^(\[[^\]]*\])(?::(\d+))?$/.exec(lower);
  if (bracket) return bracket[2] ? { host: bracket[1] ?? "", port: bracket[2] } : { host: bracket[1] ?? "" };
  const port = /^(.*):(\d+)$/.exec(lower);
  const host = (port ? (port[1] ?? "") : lower).replace(/\.$/, "");
  return port?.[2] ? { host, port: port[2] } : { host };
}

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443", "ftp:": "21", "ws:": "80", "wss:": "443" };

/** The host (and port) a URL points at, or undefined when it is not a URL. */
export function urlHost(url: string): { host: string; port: string } | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.hostname === "") return undefined;
    return { host: parsed.hostname.toLowerCase().replace(/\.$/, ""), port: parsed.port || (DEFAULT_PORTS[parsed.protocol] ?? "") };
  } catch {
    return undefined;
  }
}

/**
 * `domain:` patterns: `*` is every host; `*.example.com` is any subdomain (any depth, not the
 * apex); any other `*` stays within one label; case and a trailing dot are ignored.
 */
export function domainMatches(pattern: string, url: string): boolean {
  const target = urlHost(url);
  if (!target) return false;
  if (pattern.trim() === "*") return true;
  const { host, port } = splitHostPort(pattern.trim());
  if (port !== undefined && port !== target.port) return false;
  if (host.startsWith("*.")) {
    const apex = host.slice(2);
    return !apex.includes("*") ? target.host.endsWith(`.${apex}`) : labelGlob(`*.${apex}`).test(target.host);
  }
  return host.includes("*") ? labelGlob(host).test(target.host) : host === target.host;
}

function labelGlob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^.]*")}$`);
}

function stringField(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value: unknown = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/** `Agent(type)`: the subagent type, `general-purpose` when the call names none. */
export function agentMatches(pattern: string, input: unknown): boolean {
  return wildcard(pattern).test(stringField(input, "subagent_type") ?? "general-purpose");
}

/**
 * `Skill(name)` approves the skill without arguments, `Skill(name *)` with any; deny and ask
 * rules name a skill whatever its arguments.
 */
export function skillMatches(pattern: string, input: unknown, kind: RuleKind): boolean {
  const skill = (stringField(input, "skill") ?? stringField(input, "command") ?? "").replace(/^\//, "");
  const args = (stringField(input, "args") ?? "").trim();
  const text = args === "" ? skill : `${skill} ${args}`;
  if (matchCommandPattern(pattern, text)) return true;
  return kind !== "allow" && matchCommandPattern(pattern.replace(/ \*$/, ""), skill);
}
