/**
 * One server definition as written → the typed config (not yet expanded), or the reason it is
 * skipped (spec §2.2). The messages Claude Code prints are kept word for word where the spec
 * quotes them; the rest name the server, the key and what to change. Field shapes are checked
 * with zod, built on the first definition seen, so a run without MCP servers never loads it.
 */
import { lazySchema } from "../../util/lazy-schema.ts";
import type { McpProblem, McpProblemType, McpServerConfig } from "../types.ts";

export const RESERVED_NAMES: readonly string[] = ["workspace", "claude-in-chrome", "computer-use", "Claude Preview", "Claude Browser"];
const NAME_CHARSET = /^[A-Za-z0-9_-]+$/;

export function isValidServerName(name: string): boolean {
  return NAME_CHARSET.test(name);
}

const common = lazySchema((z) =>
  z.looseObject({
    timeout: z.number().positive().optional(),
    alwaysLoad: z.boolean().optional(),
  }),
);

const stdioFields = lazySchema((z) =>
  z.looseObject({
    command: z.string(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
  }),
);

const remoteFields = lazySchema((z) =>
  z.looseObject({
    url: z.string(),
    headers: z.record(z.string(), z.string()).optional(),
    headersHelper: z.string().optional(),
    oauth: z
      .looseObject({
        clientId: z.string().optional(),
        callbackPort: z.number().int().positive().optional(),
        scopes: z.string().optional(),
        authServerMetadataUrl: z.string().optional(),
      })
      .optional(),
  }),
);

export interface EntryResult {
  config?: McpServerConfig;
  problems: McpProblem[];
}

/** Where the definitions of one file live: `mcpServers` in most files, `projects[…].mcpServers` in clew.json. */
export interface EntryPlace {
  file: string;
  /** Key path of the servers object, e.g. `mcpServers`. */
  base: string;
}

function problemFor(place: EntryPlace, name: string, type: McpProblemType, message: string, severity: McpProblem["severity"], key?: string): McpProblem {
  return { file: place.file, keyPath: `${place.base}.${name}${key ? `.${key}` : ""}`, server: name, type, message, severity };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function normaliseType(raw: Record<string, unknown>): McpServerConfig["type"] | { unknown: string } | "url-without-type" {
  const type = raw.type;
  if (type === undefined) return typeof raw.url === "string" ? "url-without-type" : "stdio";
  if (type === "streamable-http") return "http";
  if (type === "stdio" || type === "http" || type === "sse" || type === "ws") return type;
  return { unknown: typeof type === "string" ? type : JSON.stringify(type) };
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${String(segment)}`)).join("").replace(/^\./, "");
}

const isStringRecord = (value: unknown): boolean => isRecord(value) && Object.values(value).every((item) => typeof item === "string");

/**
 * The shapes the schemas below accept, for the entries people actually write: when every field
 * clew reads already has its type, zod (whose first use costs milliseconds of start-up) is not
 * loaded. Anything else — a wrong type, an `oauth` block — goes to the schemas for the message.
 */
function plainlyValid(raw: Record<string, unknown>, stdio: boolean): boolean {
  if (raw.timeout !== undefined && (typeof raw.timeout !== "number" || !(raw.timeout > 0))) return false;
  if (raw.alwaysLoad !== undefined && typeof raw.alwaysLoad !== "boolean") return false;
  if (stdio) {
    return typeof raw.command === "string" && (raw.args === undefined || (Array.isArray(raw.args) && raw.args.every((arg) => typeof arg === "string"))) && (raw.env === undefined || isStringRecord(raw.env));
  }
  return typeof raw.url === "string" && (raw.headers === undefined || isStringRecord(raw.headers)) && (raw.headersHelper === undefined || typeof raw.headersHelper === "string") && raw.oauth === undefined;
}

function shapeProblems(place: EntryPlace, name: string, raw: Record<string, unknown>, stdio: boolean): McpProblem[] {
  if (plainlyValid(raw, stdio)) return [];
  const schemas = [common(), stdio ? stdioFields() : remoteFields()];
  const problems: McpProblem[] = [];
  for (const schema of schemas) {
    const result = schema.safeParse(raw);
    if (result.success) continue;
    for (const issue of result.error.issues) {
      const key = issuePath(issue.path);
      const why = issue.message.replace(/^Invalid input: /, "");
      problems.push(
        problemFor(place, name, "invalid_config", `MCP server "${name}" is skipped: ${place.base}.${name}.${key}: ${why}; fix this field`, "error", key),
      );
    }
  }
  return problems;
}

function whitespaceProblems(place: EntryPlace, name: string, config: McpServerConfig): McpProblem[] {
  // [what the message calls it, key path below the entry, the text]
  const fields: Array<[string, string, string]> = [];
  const record = (field: "env" | "headers", values: Record<string, string>) => {
    for (const [key, value] of Object.entries(values)) fields.push([`${field} name ${JSON.stringify(key)}`, field, key], [`${field}.${key}`, `${field}.${key}`, value]);
  };
  if (config.type === "stdio") {
    fields.push(["command", "command", config.command]);
    config.args.forEach((arg, index) => fields.push([`args[${index}]`, `args[${index}]`, arg]));
    record("env", config.env);
  } else {
    fields.push(["url", "url", config.url]);
    record("headers", config.headers);
  }
  return fields
    .filter(([, , value]) => value !== value.trim())
    .map(([label, key, value]) =>
      problemFor(
        place,
        name,
        "whitespace",
        `MCP server "${name}": ${label} ${JSON.stringify(value)} has leading or trailing whitespace; it is used as written — remove the spaces if they are not meant`,
        "warning",
        key,
      ),
    );
}

function buildConfig(raw: Record<string, unknown>, type: McpServerConfig["type"]): McpServerConfig {
  const extras = {
    ...(typeof raw.timeout === "number" ? { timeout: raw.timeout } : {}),
    ...(typeof raw.alwaysLoad === "boolean" ? { alwaysLoad: raw.alwaysLoad } : {}),
  };
  if (type === "stdio") {
    return {
      type,
      command: raw.command as string,
      args: Array.isArray(raw.args) ? [...(raw.args as string[])] : [],
      env: isRecord(raw.env) ? { ...(raw.env as Record<string, string>) } : {},
      ...extras,
    };
  }
  return {
    type,
    url: raw.url as string,
    headers: isRecord(raw.headers) ? { ...(raw.headers as Record<string, string>) } : {},
    ...(typeof raw.headersHelper === "string" ? { headersHelper: raw.headersHelper } : {}),
    ...(isRecord(raw.oauth) ? { oauth: { ...raw.oauth } } : {}),
    ...extras,
  };
}

/** Validates the name and the definition of one server. */
export function parseEntry(place: EntryPlace, name: string, raw: unknown): EntryResult {
  if (RESERVED_NAMES.includes(name)) {
    return { problems: [problemFor(place, name, "reserved_name", `MCP server name "${name}" is reserved and the entry is skipped; rename it`, "warning")] };
  }
  const problems: McpProblem[] = [];
  if (!isValidServerName(name)) {
    const message = `MCP server name "${name}" should use only letters, digits, "-" and "_"; its tools get the other characters replaced by "_" — rename it to keep tool names predictable`;
    problems.push(problemFor(place, name, "invalid_config", message, "warning"));
  }
  if (!isRecord(raw)) {
    const message = `MCP server "${name}" is skipped: its definition must be a JSON object with a "command" (or a "type" and a "url")`;
    return { problems: [...problems, problemFor(place, name, "invalid_config", message, "error")] };
  }
  const type = normaliseType(raw);
  if (type === "url-without-type") {
    const message = `MCP server "${name}" has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry`;
    return { problems: [...problems, problemFor(place, name, "url_missing_type", message, "warning")] };
  }
  if (typeof type === "object") {
    const message = `MCP server "${name}" is skipped: unknown "type" ${JSON.stringify(type.unknown)}; use "stdio", "http" (or "streamable-http"), "sse" or "ws"`;
    return { problems: [...problems, problemFor(place, name, "unknown_type", message, "error", "type")] };
  }
  if (type === "stdio" && (raw.command === undefined || raw.command === "")) {
    const message = `MCP server "${name}" is skipped: it has no "command"; add the program to run (or a "type" and "url" for a remote server)`;
    return { problems: [...problems, problemFor(place, name, "invalid_config", message, "error", "command")] };
  }
  if (type !== "stdio" && raw.url === undefined) {
    const message = `MCP server "${name}" is skipped: a "${type}" server needs a "url"; add it (an empty string means "not configured yet")`;
    return { problems: [...problems, problemFor(place, name, "invalid_config", message, "error", "url")] };
  }
  const shape = shapeProblems(place, name, raw, type === "stdio");
  if (shape.length > 0) return { problems: [...problems, ...shape] };
  const config = buildConfig(raw, type);
  return { config, problems: [...problems, ...whitespaceProblems(place, name, config)] };
}

/** Keys sorted at every level, so the same definition always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The definition as written (before `${VAR}` expansion): a project server's approval is tied to it. */
export function definitionHash(raw: unknown): string {
  return Bun.hash(canonicalJson(raw)).toString(16).padStart(16, "0");
}
