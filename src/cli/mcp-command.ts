/**
 * `clew mcp <subcommand>`: add, add-json, list, get, remove, reset-project-choices (spec §2.5).
 * Definitions are read the way a session reads them (settings, trust, policy, approvals), so
 * `list` and `get` show what a session would start. The health check is injectable: tests of the
 * listing itself run without connecting to anything.
 */
import { dirname, resolve } from "node:path";
import {
  loadMcpConfigFor,
  mcpProjectDir,
  probeServers,
  removeServerDefinition,
  resetProjectChoices,
  scopeFile,
  type ConfiguredServer,
  type EditPlace,
  type Health,
} from "../app/mcp-config.ts";
import { loadSettings } from "../settings/load.ts";
import type { Environment } from "../settings/paths.ts";
import { FatalError } from "../util/errors.ts";
import { parseScope, runMcpAdd, runMcpAddJson, type McpCommandIO } from "./mcp-add.ts";
import { renderDiagnostics, renderGet, renderList, shouldProbe, type StatusContext } from "./mcp-list.ts";

export type { McpCommandIO } from "./mcp-add.ts";

export type HealthCheck = (servers: readonly ConfiguredServer[], options: { timeoutMs: number; cwd: string; env: Readonly<Record<string, string>> }) => Promise<Health[]>;

export interface McpCommandDeps {
  health?: HealthCheck;
}

const DEFAULT_TIMEOUT_MS = 30_000;

const USAGE = `Usage: clew mcp <command> [options]

Configure and manage MCP servers

Commands:
  add [options] <name> <commandOrUrl> [args...]   Add a server (-s local|user|project, -t stdio|sse|http, -e KEY=value, -H "Name: value")
  add-json [options] <name> <json|->              Add a server from a JSON definition (- reads it from stdin)
  list                                            List configured servers and check their health
  get <name>                                      Show the details of one server
  remove [options] <name>                         Remove a server (-s to choose the scope)
  reset-project-choices                           Forget your approvals and rejections of this project's .mcp.json servers

Examples:
  clew mcp add mytool -e API_KEY=xyz -- npx -y @example/mcp-server
  clew mcp add --transport http -s user notion https://mcp.notion.com/mcp -H "Authorization: Bearer $TOKEN"
`;

function placeOf(env: Environment): EditPlace {
  return { configDir: env.configDir, cwd: resolve(env.cwd), projectDir: mcpProjectDir(env) };
}

function configured(env: Environment) {
  const loaded = loadSettings({ startDir: env.cwd, configDir: env.configDir, homeDir: env.homeDir, managedDirs: env.managedSettingsDirs, cli: {}, keepDenyOnError: true });
  const disabled = loaded.settings.disabledMcpjsonServers;
  const context: StatusContext = { disabled: new Set(Array.isArray(disabled) ? disabled.filter((name): name is string => typeof name === "string") : []) };
  return { config: loadMcpConfigFor(env, loaded, { cliConfigs: [], strict: false }), context };
}

async function checkHealth(servers: readonly ConfiguredServer[], env: Environment, health: HealthCheck): Promise<Map<string, Health>> {
  const probed = servers.filter(shouldProbe);
  const results = await health(probed, { timeoutMs: env.mcpTimeoutMs ?? DEFAULT_TIMEOUT_MS, cwd: mcpProjectDir(env), env: env.childEnv });
  return new Map(probed.map((server, index) => [server.name, results[index] ?? { status: "failed", detail: "no result" }]));
}

async function runList(args: readonly string[], env: Environment, io: McpCommandIO, health: HealthCheck): Promise<number> {
  if (args.length > 0) throw new FatalError("usage", `error: unexpected arguments: ${args.join(" ")}`, "usage: clew mcp list");
  const { config, context } = configured(env);
  // Claude Code does not list WebSocket servers here.
  const servers = config.servers.filter((server) => server.config.type !== "ws");
  const diagnostics = renderDiagnostics(config.problems, env.homeDir, `${env.configDir}/clew.json`);
  if (servers.length === 0) {
    io.writeOut("No MCP servers configured. Use `clew mcp add` to add a server.\n");
    if (diagnostics) io.writeOut(`\n${diagnostics}`);
    return 0;
  }
  io.writeOut("Checking MCP server health…\n\n");
  io.writeOut(renderList(servers, await checkHealth(servers, env, health), context));
  if (diagnostics) io.writeOut(`\n${diagnostics}`);
  return 0;
}

async function runGet(args: readonly string[], env: Environment, io: McpCommandIO, health: HealthCheck): Promise<number> {
  const [name, ...extra] = args;
  if (name === undefined || extra.length > 0) throw new FatalError("usage", "error: usage: clew mcp get <name>");
  const { config, context } = configured(env);
  const server = config.servers.find((item) => item.name === name);
  const issues = config.problems.filter((problem) => problem.server === name);
  if (!server) {
    const why = issues[0] ? `${issues[0].message} (in ${issues[0].file})` : undefined;
    throw new FatalError("usage", `No MCP server found with name: ${name}`, why);
  }
  const results = await checkHealth([server], env, health);
  io.writeOut(renderGet(server, results.get(name), context, issues));
  return 0;
}

function runRemove(args: readonly string[], env: Environment, io: McpCommandIO): number {
  let scope: ReturnType<typeof parseScope> | undefined;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-s" || arg === "--scope") scope = parseScope(args[++i]);
    else if (arg.startsWith("--scope=")) scope = parseScope(arg.slice("--scope=".length));
    else if (arg.startsWith("-")) throw new FatalError("usage", `error: unknown option '${arg}'`, "usage: clew mcp remove [-s local|user|project] <name>");
    else names.push(arg);
  }
  const [name] = names;
  if (name === undefined || names.length > 1) throw new FatalError("usage", "error: usage: clew mcp remove [-s local|user|project] <name>");
  const place = placeOf(env);
  const removed = removeServerDefinition(place, name, scope);
  io.writeOut(`Removed MCP server ${name} from ${removed.scope} config\n`);
  io.writeOut(`File modified: ${scopeFile(place, removed.scope)}${removed.scope === "local" ? ` [project: ${place.projectDir}]` : ""}\n`);
  return 0;
}

/** Every folder from cwd up to the project root: a `.mcp.json` in any of them may have been answered. */
function projectFolders(env: Environment): string[] {
  const top = mcpProjectDir(env);
  const folders: string[] = [];
  for (let dir = resolve(env.cwd); ; dir = dirname(dir)) {
    folders.push(dir);
    if (dir === top || dirname(dir) === dir) break;
  }
  return folders;
}

function runReset(args: readonly string[], env: Environment, io: McpCommandIO): number {
  if (args.length > 0) throw new FatalError("usage", `error: unexpected arguments: ${args.join(" ")}`, "usage: clew mcp reset-project-choices");
  const cleared = projectFolders(env).reduce((sum, folder) => sum + resetProjectChoices(env.configDir, folder), 0);
  io.writeOut(
    `All project-scoped (.mcp.json) server approvals and rejections have been reset (${cleared} remembered answer${cleared === 1 ? "" : "s"}).\n` +
      "You will be asked again the next time you start clew here.\n" +
      "Approvals written in settings files (enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers) are not changed.\n",
  );
  return 0;
}

/** `args` are the words after `mcp`. */
export async function runMcpCommand(args: readonly string[], env: Environment, io: McpCommandIO, deps: McpCommandDeps = {}): Promise<number> {
  const [sub, ...rest] = args;
  const health = deps.health ?? probeServers;
  if (sub !== undefined && (rest.includes("--help") || rest.includes("-h")) && !rest.includes("--")) {
    io.writeOut(USAGE);
    return 0;
  }
  switch (sub) {
    case "add":
      return runMcpAdd(rest, placeOf(env), io);
    case "add-json":
      return await runMcpAddJson(rest, placeOf(env), io);
    case "list":
      return await runList(rest, env, io, health);
    case "get":
      return await runGet(rest, env, io, health);
    case "remove":
      return runRemove(rest, env, io);
    case "reset-project-choices":
      return runReset(rest, env, io);
    case undefined:
    case "help":
    case "-h":
    case "--help":
      io.writeOut(USAGE);
      return 0;
    case "login":
    case "logout":
    case "serve":
    case "add-from-claude-desktop":
      io.writeErr(`clew: 'mcp ${sub}' is not available in this build yet.\n`);
      return 1;
    default:
      throw new FatalError("usage", `error: unknown command 'mcp ${sub}'`, "Run clew mcp --help for the commands.");
  }
}
