/**
 * Command-line parsing, Claude Code's flag set. Hand-written because the grammar is small and
 * has quirks (variadic tool lists, `-r` with an optional value, flags accepted only to be
 * refused with a clear message) and because start-up time matters more than a framework.
 */
import { EFFORT_LEVELS } from "../app/thinking-setup.ts";
import type { EffortLevel } from "../model/types.ts";
import { PERMISSION_MODES, type PermissionMode } from "../permissions/types.ts";
import { FatalError } from "../util/errors.ts";

export type OutputFormat = "text" | "json" | "stream-json";

export interface CliOptions {
  print: boolean;
  prompt: string | undefined;
  command: string | undefined;
  commandArgs: string[];
  continue: boolean;
  resume: string | true | undefined;
  sessionId: string | undefined;
  model: string | undefined;
  /** `--fallback-model m1,m2`: models to go on with when the model is overloaded. */
  fallbackModel: string | undefined;
  /** `--json-schema`: print mode answers through StructuredOutput, checked against this schema (JSON text). */
  jsonSchema: string | undefined;
  /** `--autocompact <tokens>`: the session's auto-compact window (`auto`: the model's). */
  autoCompactWindow: number | undefined;
  /** `--append-subagent-system-prompt`: added to every helper agent's system prompt. */
  appendSubagentSystemPrompt: string | undefined;
  /** `--exclude-dynamic-system-prompt-sections`: the environment and instruction files go in the first user message. */
  excludeDynamicSections: boolean;
  /** `--permission-mode auto` was asked for: the session starts in default (said on stderr). */
  autoModeUnavailable: boolean;
  /** `--prompt-suggestions`: accepted; clew makes no suggestions (said on stderr). */
  promptSuggestions: boolean;
  /** `--fail-on-denial` (clew's): a `-p` run in which any tool call was denied ends as an error. */
  failOnDenial: boolean;
  /** `--bare`: only what the command line names is loaded (app/bare-mode.ts). */
  bare: boolean;
  disableSlashCommands: boolean;
  /** `--init` / `--maintenance`: Setup hooks with that trigger (print mode); `--init-only`: only those, then exit. */
  setup: "init" | "maintenance" | undefined;
  initOnly: boolean;
  safeMode: boolean;
  name: string | undefined;
  /** `-w` / `--worktree [name]`: run in `<repo>/.claude/worktrees/<name>` ("" when no name was given). */
  worktree: string | undefined;
  /** `--max-wall-time <duration>` (clew's): the whole `-p` run, helpers included, ends after this many ms. */
  maxWallTimeMs: number | undefined;
  /** `--effort`: this session's effort level (CLAUDE_CODE_EFFORT_LEVEL still outranks it). */
  effort: EffortLevel | undefined;
  maxTurns: number | undefined;
  outputFormat: OutputFormat;
  inputFormat: "text" | "stream-json";
  verbose: boolean;
  includePartialMessages: boolean;
  systemPrompt: string | undefined;
  systemPromptFile: string | undefined;
  appendSystemPrompt: string | undefined;
  appendSystemPromptFile: string | undefined;
  permissionMode: PermissionMode | undefined;
  allowedTools: string[];
  disallowedTools: string[];
  tools: string[] | undefined;
  settings: string | undefined;
  settingSources: string[] | undefined;
  addDirs: string[];
  /** `--plugin-dir` values: plugin folders used in place for this session (`name@inline`). */
  pluginDirs: string[];
  /** `--mcp-config` values: files or JSON strings, in order. */
  mcpConfigs: string[];
  strictMcpConfig: boolean;
  /** `--agents` JSON: agent definitions for this session. */
  agentsJson: string | undefined;
  /** `--agent <name>`: the main thread runs as this agent. */
  agent: string | undefined;
  maxBudgetUsd: number | undefined;
  /** `--rewind-to N` (with `-p -r ID`): restore the files to just before the session's N-th prompt. */
  rewindTo: number | undefined;
  /** `--permission-prompt-tool`: who answers permission prompts (`stdio`: the host, over the control protocol). */
  permissionPromptTool: string | undefined;
  /** `--allow-dangerously-skip-permissions`: bypassPermissions may be switched to later without starting in it. */
  allowDangerouslySkipPermissions: boolean;
  /** `--replay-user-messages` (stream-json in and out): each user message read is echoed with `isReplay: true`. */
  replayUserMessages: boolean;
  persistSession: boolean;
  forkSession: boolean;
  version: boolean;
  help: boolean;
}

// Claude Code subcommands clew has not got (install, agents, purge) are refused by name rather than sent as a prompt.
const SUBCOMMANDS = new Set(["config", "doctor", "update", "plugin", "plugins", "mcp", "install", "agents", "purge"]);

const UNSUPPORTED = new Set([
  "--bg", "--cloud", "--remote-control", "--teleport", "--from-pr", "--tmux", "--channels", "--restricted",
  "--system-prompt-snapshot", "--file", "--desktop", "--environment", "--exec", "--ide", "--chrome", "--no-chrome",
  // Sent by the Agent SDK for options clew does not have (see the README's Agent SDK table).
  "--betas", "--thinking", "--max-thinking-tokens", "--thinking-display", "--task-budget",
  "--permission-prompts", "--await-initialize", "--initialize-fields", "--managed-settings", "--managed-settings-in-initialize",
  "--plugin-dir-no-mcp", "--plugin-url", "--resume-session-at", "--resume-drops-turn", "--session-mirror", "--project-config-root",
]);

type Setter = (options: CliOptions, value: string) => void;

function positiveInt(flag: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw usage(`option '${flag} <n>' argument '${value}' is invalid. Expected a positive whole number.`);
  return parsed;
}

function choice<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw usage(`option '${flag}' argument '${value}' is invalid. Allowed choices are ${allowed.join(", ")}.`);
}

function usage(message: string): FatalError {
  return new FatalError("usage", `error: ${message}`, "Run clew --help for usage.");
}

/** Values of a list option: space-separated args and comma-separated items both count. */
function splitList(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    // Commas inside parentheses belong to a rule specifier, e.g. Bash(git diff:*,x).
    let depth = 0;
    let current = "";
    for (const char of value) {
      if (char === "(") depth += 1;
      if (char === ")") depth = Math.max(0, depth - 1);
      if ((char === "," || (char === " " && depth === 0)) && depth === 0) {
        if (current.trim() !== "") out.push(current.trim());
        current = "";
      } else current += char;
    }
    if (current.trim() !== "") out.push(current.trim());
  }
  return out;
}

const VALUE_FLAGS: Record<string, Setter> = {
  "--model": (o, v) => (o.model = v),
  "--fallback-model": (o, v) => (o.fallbackModel = v),
  "--json-schema": (o, v) => (o.jsonSchema = v),
  "--autocompact": (o, v) => (o.autoCompactWindow = autoCompactWindow(v)),
  "--append-subagent-system-prompt": (o, v) => (o.appendSubagentSystemPrompt = v),
  "--effort": (o, v) => (o.effort = choice("--effort <level>", v, EFFORT_LEVELS)),
  "--max-turns": (o, v) => (o.maxTurns = positiveInt("--max-turns", v)),
  "--output-format": (o, v) => (o.outputFormat = choice("--output-format <format>", v, ["text", "json", "stream-json"] as const)),
  "--input-format": (o, v) => (o.inputFormat = choice("--input-format <format>", v, ["text", "stream-json"] as const)),
  "--system-prompt": (o, v) => (o.systemPrompt = v),
  "--system-prompt-file": (o, v) => (o.systemPromptFile = v),
  "--append-system-prompt": (o, v) => (o.appendSystemPrompt = v),
  "--append-system-prompt-file": (o, v) => (o.appendSystemPromptFile = v),
  // Claude Code starts in default when auto mode is unavailable (settings-permissions §4.1); clew has no auto mode.
  "--permission-mode": (o, v) => {
    o.autoModeUnavailable = v === "auto";
    o.permissionMode = v === "manual" || v === "auto" ? "default" : choice("--permission-mode <mode>", v, PERMISSION_MODES);
  },
  "--session-id": (o, v) => (o.sessionId = v),
  "-n": (o, v) => (o.name = v),
  "--name": (o, v) => (o.name = v),
  "--settings": (o, v) => (o.settings = v),
  "--setting-sources": (o, v) => (o.settingSources = splitList([v])),
  "--agents": (o, v) => (o.agentsJson = v),
  "--agent": (o, v) => (o.agent = v),
  // One path per flag (Claude Code since v2.1.76); repeat the flag for more.
  "--plugin-dir": (o, v) => o.pluginDirs.push(v),
  "--max-budget-usd": (o, v) => (o.maxBudgetUsd = positiveAmount("--max-budget-usd", v)),
  "--max-wall-time": (o, v) => (o.maxWallTimeMs = duration("--max-wall-time", v)),
  "--rewind-to": (o, v) => (o.rewindTo = positiveInt("--rewind-to", v)),
  "--permission-prompt-tool": (o, v) => (o.permissionPromptTool = v),
  // Like --debug: clew keeps no debug log yet (the Agent SDK passes one when DEBUG_CLAUDE_AGENT_SDK is set).
  "--debug-file": () => {},
};

/** `--mcp-config a.json b.json '{"mcpServers":…}'`: each value is one config, never split on commas. */
function mcpConfigValues(o: CliOptions, values: string[]): void {
  o.mcpConfigs.push(...values);
}

/** `auto`, or a window of 100k–1M tokens (`400000`, `400k`, `1m`). */
function autoCompactWindow(value: string): number | undefined {
  if (value === "auto") return undefined;
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(value.trim());
  const tokens = match ? Math.round(Number(match[1]) * (match[2]?.toLowerCase() === "m" ? 1_000_000 : match[2]?.toLowerCase() === "k" ? 1_000 : 1)) : Number.NaN;
  if (!Number.isInteger(tokens) || tokens < 100_000 || tokens > 1_000_000) {
    throw usage(`option '--autocompact <auto|tokens>' argument '${value}' is invalid. Expected auto or a window of 100000 to 1000000 tokens (e.g. 400000 or 400k).`);
  }
  return tokens;
}

/** `90`, `90s`, `10m`, `1h` (or `1.5h`): milliseconds. */
function duration(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match?.[2] ?? "s"] ?? 1000;
  const ms = match ? Math.round(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw usage(`option '${flag} <duration>' argument '${value}' is invalid. Expected a duration such as 90s, 10m or 1h.`);
  return ms;
}

function positiveAmount(flag: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw usage(`option '${flag} <amount>' argument '${value}' is invalid. Expected a positive number of dollars.`);
  return parsed;
}

const LIST_FLAGS: Record<string, (o: CliOptions, values: string[]) => void> = {
  "--allowedTools": (o, v) => o.allowedTools.push(...splitList(v)),
  "--allowed-tools": (o, v) => o.allowedTools.push(...splitList(v)),
  "--disallowedTools": (o, v) => o.disallowedTools.push(...splitList(v)),
  "--disallowed-tools": (o, v) => o.disallowedTools.push(...splitList(v)),
  "--tools": (o, v) => (o.tools = splitList(v)),
  "--add-dir": (o, v) => o.addDirs.push(...splitList(v)),
  "--mcp-config": mcpConfigValues,
};

const BOOLEAN_FLAGS: Record<string, (o: CliOptions) => void> = {
  "-p": (o) => (o.print = true),
  "--print": (o) => (o.print = true),
  "-c": (o) => (o.continue = true),
  "--continue": (o) => (o.continue = true),
  "--verbose": (o) => (o.verbose = true),
  "--include-partial-messages": (o) => (o.includePartialMessages = true),
  "--dangerously-skip-permissions": (o) => (o.permissionMode = "bypassPermissions"),
  "--allow-dangerously-skip-permissions": (o) => (o.allowDangerouslySkipPermissions = true),
  "--replay-user-messages": (o) => (o.replayUserMessages = true),
  "--no-session-persistence": (o) => (o.persistSession = false),
  "--fork-session": (o) => (o.forkSession = true),
  "--strict-mcp-config": (o) => (o.strictMcpConfig = true),
  "--exclude-dynamic-system-prompt-sections": (o) => (o.excludeDynamicSections = true),
  // clew already writes helpers' messages, their text included, as stream-json frames.
  "--forward-subagent-text": () => {},
  "--prompt-suggestions": (o) => (o.promptSuggestions = true),
  "--fail-on-denial": (o) => (o.failOnDenial = true),
  "--bare": (o) => (o.bare = true),
  "--disable-slash-commands": (o) => (o.disableSlashCommands = true),
  "--safe-mode": (o) => (o.safeMode = true),
  "--init": (o) => (o.setup = "init"),
  "--maintenance": (o) => (o.setup = "maintenance"),
  "--init-only": (o) => {
    o.setup = "init";
    o.initOnly = true;
  },
  "-v": (o) => (o.version = true),
  "--version": (o) => (o.version = true),
  "-h": (o) => (o.help = true),
  "--help": (o) => (o.help = true),
  "-d": () => {},
  "--debug": () => {},
  // Claude Code's deprecated spelling of --debug=mcp.
  "--mcp-debug": () => {},
  // clew writes every hook's stream-json frames already.
  "--include-hook-events": () => {},
};

export function defaultOptions(): CliOptions {
  return {
    print: false, prompt: undefined, command: undefined, commandArgs: [], continue: false, resume: undefined,
    sessionId: undefined, model: undefined, fallbackModel: undefined, jsonSchema: undefined, autoCompactWindow: undefined, appendSubagentSystemPrompt: undefined, excludeDynamicSections: false, autoModeUnavailable: false, promptSuggestions: false, failOnDenial: false, bare: false, disableSlashCommands: false, setup: undefined, initOnly: false, safeMode: false, name: undefined, worktree: undefined, maxWallTimeMs: undefined, effort: undefined, maxTurns: undefined, outputFormat: "text", inputFormat: "text",
    verbose: false, includePartialMessages: false, systemPrompt: undefined, systemPromptFile: undefined,
    appendSystemPrompt: undefined, appendSystemPromptFile: undefined, permissionMode: undefined, allowedTools: [],
    disallowedTools: [], tools: undefined, settings: undefined, settingSources: undefined, addDirs: [],
    pluginDirs: [], mcpConfigs: [], strictMcpConfig: false, agentsJson: undefined, agent: undefined, maxBudgetUsd: undefined,
    rewindTo: undefined, permissionPromptTool: undefined, allowDangerouslySkipPermissions: false, replayUserMessages: false, persistSession: true, forkSession: false, version: false, help: false,
  };
}

export function parseArgs(argv: readonly string[]): CliOptions {
  const options = defaultOptions();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] as string;
    if (raw === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const eq = raw.startsWith("--") ? raw.indexOf("=") : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const inline = eq > 0 ? raw.slice(eq + 1) : undefined;
    if (!flag.startsWith("-") || flag === "-") {
      positionals.push(raw);
      continue;
    }
    if (flag === "-r" || flag === "--resume") {
      const next = argv[i + 1];
      if (inline !== undefined) options.resume = inline;
      else if (next !== undefined && !next.startsWith("-")) {
        options.resume = next;
        i += 1;
      } else options.resume = true;
      continue;
    }
    if (flag === "-w" || flag === "--worktree") {
      // The name is optional: the next word is taken as one only when it could be a name (a prompt has spaces).
      const next = argv[i + 1];
      if (inline !== undefined) options.worktree = inline;
      else if (next !== undefined && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(next)) {
        options.worktree = next;
        i += 1;
      } else options.worktree = "";
      continue;
    }
    const boolean = BOOLEAN_FLAGS[flag];
    if (boolean) {
      boolean(options);
      continue;
    }
    const setter = VALUE_FLAGS[flag];
    if (setter) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw usage(`option '${flag}' argument missing`);
      setter(options, value);
      continue;
    }
    const list = LIST_FLAGS[flag];
    if (list) {
      const values: string[] = inline !== undefined ? [inline] : [];
      while (inline === undefined && argv[i + 1] !== undefined && !(argv[i + 1] as string).startsWith("-")) values.push(argv[++i] as string);
      if (values.length === 0) throw usage(`option '${flag}' argument missing`);
      list(options, values);
      continue;
    }
    if (UNSUPPORTED.has(flag)) throw new FatalError("usage", `error: ${flag} is a Claude Code feature that clew does not support.`);
    throw usage(`unknown option '${flag}'`);
  }
  // A stream-json input session has no terminal to draw on: it is headless even without -p
  // (the Agent SDK starts Claude Code without it).
  if (options.inputFormat === "stream-json") options.print = true;
  const first = positionals[0];
  if (first !== undefined && SUBCOMMANDS.has(first) && !options.print) {
    options.command = first;
    options.commandArgs = positionals.slice(1);
  } else if (positionals.length > 0) {
    options.prompt = positionals.join(" ");
  }
  return options;
}
