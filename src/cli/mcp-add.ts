/**
 * `clew mcp add` and `clew mcp add-json` (distribution-mcp spec §2.5): Claude Code's flags,
 * argument rules and output, with `clew` and clew.json in place of `claude` and `.claude.json`.
 * Options may come anywhere before `--`; everything after `--` is the server's command line.
 * `-e` and `-H` take every following word up to the next option, so a server name written right
 * after them is taken as a value and refused with Claude Code's message.
 */
import {
  EDIT_SCOPES,
  RESERVED_NAMES,
  addServerDefinition,
  isValidServerName,
  parseEntry,
  parseJsonText,
  type EditPlace,
  type EditScope,
} from "../app/mcp-config.ts";
import { FatalError } from "../util/errors.ts";
import type { CommandIO } from "./config-command.ts";

export interface McpCommandIO extends CommandIO {
  readStdin(): Promise<string>;
}

type Transport = "stdio" | "sse" | "http";
const TRANSPORTS: readonly Transport[] = ["stdio", "sse", "http"];
const TRANSPORT_LABEL: Record<Transport | "ws", string> = { stdio: "stdio", sse: "SSE", http: "HTTP", ws: "WebSocket" };

interface AddOptions {
  scope: EditScope;
  transport: Transport;
  env: string[];
  headers: string[];
  clientId?: string;
  callbackPort?: string;
  positional: string[];
  /** Words after `--`. */
  rest: string[];
}

function usage(message: string): FatalError {
  return new FatalError("usage", `error: ${message}`);
}

export function parseScope(value: string | undefined): EditScope {
  if (value !== undefined && (EDIT_SCOPES as readonly string[]).includes(value)) return value as EditScope;
  throw usage(`Invalid scope: ${value ?? ""}. Must be one of: ${EDIT_SCOPES.join(", ")}`);
}

const VALUE_OPTIONS: Record<string, "scope" | "transport" | "clientId" | "callbackPort"> = {
  "-s": "scope", "--scope": "scope", "-t": "transport", "--transport": "transport", "--client-id": "clientId", "--callback-port": "callbackPort",
};
const LIST_OPTIONS: Record<string, "env" | "headers"> = { "-e": "env", "--env": "env", "-H": "headers", "--header": "headers" };

function parseAddArgs(args: readonly string[], allowRest: boolean): AddOptions {
  const options: AddOptions = { scope: "local", transport: "stdio", env: [], headers: [], positional: [], rest: [] };
  for (let i = 0; i < args.length; i++) {
    const raw = args[i] as string;
    const eq = raw.startsWith("--") ? raw.indexOf("=") : -1;
    const arg = eq > 0 ? raw.slice(0, eq) : raw;
    const inline = eq > 0 ? raw.slice(eq + 1) : undefined;
    if (arg === "--") {
      if (!allowRest) throw usage("unexpected '--': add-json takes a name and a JSON value");
      options.rest = args.slice(i + 1);
      break;
    }
    const valueKey = VALUE_OPTIONS[arg];
    if (valueKey) {
      const value = inline ?? args[++i];
      if (value === undefined) throw usage(`option '${arg}' argument missing`);
      if (valueKey === "scope") options.scope = parseScope(value);
      else if (valueKey === "transport") {
        if (!(TRANSPORTS as readonly string[]).includes(value)) throw usage(`Invalid transport type: ${value}. Must be one of: ${TRANSPORTS.join(", ")}`);
        options.transport = value as Transport;
      } else options[valueKey] = value;
      continue;
    }
    const listKey = LIST_OPTIONS[arg];
    if (listKey) {
      const values = inline !== undefined ? [inline] : [];
      while (inline === undefined && i + 1 < args.length && !(args[i + 1] as string).startsWith("-")) values.push(args[++i] as string);
      if (values.length === 0) throw usage(`option '${arg}' argument missing`);
      options[listKey].push(...values);
      continue;
    }
    if (arg === "--client-secret") throw usage("--client-secret is not supported by clew yet; configure the client without it or use headers");
    if (arg.startsWith("-") && arg !== "-") {
      throw new FatalError("usage", `error: unknown option '${arg}'`, "Put the server's own options after `--`: clew mcp add <name> -- <command> [args...]");
    }
    options.positional.push(raw);
  }
  return options;
}

function envRecord(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq <= 0) throw usage(`Invalid environment variable format: ${value}, environment variables should be added as: -e KEY1=value1 -e KEY2=value2`);
    env[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return env;
}

function headerRecord(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon <= 0) throw usage(`Invalid header format: "${value}". Expected format: "Header-Name: value"`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((key) => [key, "[REDACTED]"]));
}

function checkName(name: string | undefined): string {
  if (name === undefined || name === "") throw usage("missing required argument 'name'");
  if (RESERVED_NAMES.includes(name)) throw usage(`"${name}" is a reserved MCP server name; choose another name`);
  if (!isValidServerName(name)) throw usage(`Invalid name ${name}. Names can only contain letters, numbers, hyphens, and underscores.`);
  return name;
}

function fileModified(place: EditPlace, scope: EditScope, file: string): string {
  return scope === "local" ? `File modified: ${file} [project: ${place.projectDir}]\n` : `File modified: ${file}\n`;
}

function oauthOf(options: AddOptions): Record<string, unknown> | undefined {
  if (options.clientId === undefined && options.callbackPort === undefined) return undefined;
  const port = options.callbackPort === undefined ? undefined : Number(options.callbackPort);
  if (port !== undefined && (!Number.isInteger(port) || port <= 0 || port > 65535)) throw usage(`--callback-port must be a port number (got '${options.callbackPort}')`);
  return { ...(options.clientId !== undefined ? { clientId: options.clientId } : {}), ...(port !== undefined ? { callbackPort: port } : {}) };
}

/** `args` are the words after `add`. */
export function runMcpAdd(args: readonly string[], place: EditPlace, io: CommandIO): number {
  const options = parseAddArgs(args, true);
  // Checked first: a name swallowed by the variadic -e/-H is reported as the bad value it became.
  const env = envRecord(options.env);
  const headers = headerRecord(options.headers);
  const name = checkName(options.positional[0]);
  const words = [...options.positional.slice(1), ...options.rest];
  const [target, ...targetArgs] = words;
  if (target === undefined) throw usage("missing required argument 'commandOrUrl'");
  const oauth = oauthOf(options);
  if (options.transport === "stdio") {
    if (options.headers.length > 0) throw usage("--header applies only to --transport http or sse");
    const definition = { type: "stdio", command: target, args: targetArgs, env, ...(oauth ? { oauth } : {}) };
    const file = addServerDefinition(place, options.scope, name, definition);
    io.writeOut(`Added stdio MCP server ${name} with command: ${[target, ...targetArgs].join(" ")} to ${options.scope} config\n`);
    io.writeOut(fileModified(place, options.scope, file));
    return 0;
  }
  if (targetArgs.length > 0) throw usage(`unexpected arguments after the URL: ${targetArgs.join(" ")}`);
  if (options.env.length > 0) throw usage("--env applies only to stdio servers");
  const hasHeaders = Object.keys(headers).length > 0;
  const definition = { type: options.transport, url: target, ...(hasHeaders ? { headers } : {}), ...(oauth ? { oauth } : {}) };
  const file = addServerDefinition(place, options.scope, name, definition);
  io.writeOut(`Added ${TRANSPORT_LABEL[options.transport]} MCP server ${name} with URL: ${target} to ${options.scope} config\n`);
  if (hasHeaders) io.writeOut(`Headers: ${JSON.stringify(redactHeaders(headers), null, 2)}\n`);
  io.writeOut(fileModified(place, options.scope, file));
  return 0;
}

/** `args` are the words after `add-json`. */
export async function runMcpAddJson(args: readonly string[], place: EditPlace, io: McpCommandIO): Promise<number> {
  const options = parseAddArgs(args, false);
  if (options.env.length > 0 || options.headers.length > 0 || options.transport !== "stdio") throw usage("add-json takes only -s/--scope; put everything else in the JSON");
  const name = checkName(options.positional[0]);
  const source = options.positional[1];
  if (source === undefined) throw usage("missing required argument 'json' (a JSON object, or - to read it from stdin)");
  if (options.positional.length > 2) throw usage(`unexpected arguments: ${options.positional.slice(2).join(" ")} (quote the JSON as one argument)`);
  const text = source === "-" ? await io.readStdin() : source;
  const read = parseJsonText(text);
  if (read.kind !== "ok") {
    const at = read.kind === "broken" && read.line !== undefined ? ` at line ${read.line}, column ${read.column ?? 1}` : "";
    throw usage(`Invalid JSON${at}: ${read.kind === "broken" ? read.message : "empty input"}`);
  }
  const entry = parseEntry({ file: source === "-" ? "stdin" : "the JSON argument", base: "mcpServers" }, name, read.value);
  const fatal = entry.problems.filter((problem) => problem.severity === "error" || !entry.config);
  if (!entry.config || fatal.length > 0) {
    throw new FatalError("usage", `error: ${(fatal[0] ?? entry.problems[0])?.message ?? `MCP server "${name}" is not a valid definition`}`);
  }
  for (const problem of entry.problems) io.writeErr(`warning: ${problem.message}\n`);
  const file = addServerDefinition(place, options.scope, name, read.value as Record<string, unknown>);
  io.writeOut(`Added ${TRANSPORT_LABEL[entry.config.type]} MCP server ${name} to ${options.scope} config\n`);
  io.writeOut(fileModified(place, options.scope, file));
  return 0;
}
