/**
 * The one module that reads the process environment, the home directory and the current
 * directory. Everything else receives these values as arguments, so tests can run any part of
 * clew against a temporary HOME and workspace without mutating globals.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface Environment {
  /** Where clew keeps user state: settings, transcripts (`CLEW_CONFIG_DIR` or `~/.clew`). */
  configDir: string;
  homeDir: string;
  cwd: string;
  /** DISABLE_PROMPT_CACHING[_OPUS|_SONNET|_HAIKU|_FABLE], ENABLE_PROMPT_CACHING_1H, FORCE_PROMPT_CACHING_5M. */
  promptCaching: { off: boolean; offFamilies: readonly string[]; oneHour: boolean };
  /** CLAUDE_CODE_DISABLE_AUTO_MEMORY: no auto memory, whatever `autoMemoryEnabled` says. */
  disableAutoMemory: boolean;
  /** CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: `--add-dir` folders' CLAUDE.md / AGENTS.md load too. */
  addDirInstructions: boolean;
  /** CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: Bash, hooks and stdio MCP servers get no credentials (util/subprocess-env.ts). */
  subprocessEnvScrub: boolean;
  /** CLAUDE_CODE_SKIP_PROMPT_HISTORY: no transcripts and no prompt history (as --no-session-persistence). */
  skipPromptHistory: boolean;
  /** SLASH_COMMAND_TOOL_CHAR_BUDGET: the skill listing's budget in characters, instead of ~1% of the window. */
  skillListingBudgetChars: number | undefined;
  /** CLAUDE_CODE_MAX_CONTEXT_TOKENS: the window of a model id clew does not know. */
  maxContextTokens: number | undefined;
  /**
   * Managed (organisation) settings directories, in the order they are tried: the first one that
   * holds a managed settings file is used alone (see settings/sources.ts).
   */
  managedSettingsDirs: string[];
  apiKey: string | undefined;
  authToken: string | undefined;
  /** CLAUDE_CODE_API_KEY_HELPER_TTL_MS: how long an `apiKeyHelper` key is used before it is asked again. */
  apiKeyHelperTtlMs: number | undefined;
  baseURL: string | undefined;
  model: string | undefined;
  /** Model aliases (`opus`, `sonnet`, …) pinned through ANTHROPIC_DEFAULT_*_MODEL. */
  aliasOverrides: Record<string, string>;
  customHeaders: Record<string, string>;
  maxRetries: number | undefined;
  /** CLAUDE_CODE_RETRY_WATCHDOG (and _MAX_WAIT_MS): 429/529 retried past maxRetries. */
  retryWatchdog: { maxWaitMs: number | undefined } | undefined;
  maxOutputTokens: number | undefined;
  maxThinkingTokens: number | undefined;
  /** CLAUDE_CODE_EFFORT_LEVEL as written (outranks `--effort` and `effortLevel`; checked where it is used). */
  effortLevel: string | undefined;
  maxTurns: number | undefined;
  streamIdleTimeoutMs: number | undefined;
  requestTimeoutMs: number | undefined;
  bashDefaultTimeoutMs: number | undefined;
  bashMaxTimeoutMs: number | undefined;
  bashMaxOutputChars: number | undefined;
  /** CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: Read's token cap for one text read. */
  readMaxTokens: number | undefined;
  contextWindow: number | undefined;
  /** CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: the time SessionEnd hooks get together. */
  sessionEndHooksTimeoutMs: number | undefined;
  /** CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: consecutive Stop-hook blocks before the stop is forced. */
  stopHookBlockCap: number | undefined;
  /** Compact when a request would use this share of the window (1–100). */
  autoCompactPercent: number | undefined;
  /** DISABLE_AUTO_COMPACT / DISABLE_COMPACT. */
  disableAutoCompact: boolean;
  disableCompact: boolean;
  noColor: boolean;
  /**
   * TERM=dumb, or CLEW_SCREEN_READER=1: a terminal (or a reader) that takes no cursor movement —
   * the interactive UI writes plain lines, with no redraws, spinner or colour.
   */
  plainTerminal: boolean;
  /** MCP_TIMEOUT: how long one server may take to connect. */
  mcpTimeoutMs: number | undefined;
  /** MCP_TOOL_TIMEOUT: how long one MCP tool call may take. */
  mcpToolTimeoutMs: number | undefined;
  /** MAX_MCP_OUTPUT_TOKENS: the cap on one MCP tool result. */
  maxMcpOutputTokens: number | undefined;
  /** MCP_CONNECTION_NONBLOCKING=0: wait for servers before the first request. */
  mcpConnectionBlocking: boolean;
  /** MCP_CONNECTION_NONBLOCKING=1: not even `-p` waits for servers. */
  mcpConnectionNonblocking: boolean | undefined;
  /** MCP_CONNECT_TIMEOUT_MS: how long a waiting start-up gives the servers. */
  mcpConnectWaitMs: number | undefined;
  /** ENABLE_TOOL_SEARCH as written: unset, `true`, `false`, `auto`, `auto:N`. */
  enableToolSearch: string | undefined;
  /** CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS: send no beta features (tool search included). */
  disableExperimentalBetas: boolean;
  /** CLAUDE_CODE_MAX_CONCURRENT_SUBAGENTS. */
  maxConcurrentSubagents: number | undefined;
  /** CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH: layers of helpers below the main agent. */
  maxSubagentDepth: number | undefined;
  /** CLAUDE_CODE_SUBAGENT_MODEL: the model every helper uses (unless `inherit`). */
  subagentModel: string | undefined;
  /** CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: helpers always run in the foreground. */
  disableBackgroundTasks: boolean;
  /** CLAUDE_CODE_DISABLE_EXPLORE_PLAN_AGENTS / CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS. */
  disableExplorePlanAgents: boolean;
  disableBuiltinAgents: boolean;
  /** Where plugins, marketplaces and their caches live (`CLEW_PLUGIN_DIR`, default `<configDir>/plugins`). */
  pluginsDir: string;
  /** GITHUB_TOKEN / GH_TOKEN: for github sources over https (never written anywhere). */
  githubToken: string | undefined;
  /** `--plugin-dir` is a flag; this is CLEW_PLUGIN_AUTO_UPDATE / FORCE_AUTOUPDATE_PLUGINS / DISABLE_AUTOUPDATER. */
  pluginAutoUpdate: { forced: boolean; disabled: boolean };
  /** CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: no network beyond the model's requests (doctor skips its API check). */
  nonessentialTrafficDisabled: boolean;
  /** Running as root outside a recognised container or sandbox (bypass mode is refused then). */
  unsandboxedRoot: boolean;
  /** The environment handed to child processes (tools, hooks). */
  childEnv: Record<string, string>;
  /** Self-update (update/): where releases come from and what may replace the running binary. */
  update: UpdateEnvironment;
}

export interface UpdateEnvironment {
  /** CLEW_UPDATE_URL: a channel's release folder (URL, local folder or file://); undefined → the default host. */
  url: string | undefined;
  /** CLEW_PIN_VERSION: the only version `clew update` may install. */
  pinVersion: string | undefined;
  /** CLEW_TRUSTED_KEY: a PEM public key file trusted instead of the embedded release key (mirrors, tests). */
  trustedKeyFile: string | undefined;
  /** DISABLE_AUTOUPDATER / CLEW_DISABLE_AUTOUPDATE / CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: no background checks. */
  disableAutoUpdate: { disabled: boolean; by: string | undefined };
  /** DISABLE_UPDATES: `clew update` refuses as well (and nothing updates in the background). */
  disableUpdates: boolean;
  /** The running executable (the compiled clew binary, or bun when run from source). */
  executablePath: string;
}

function intFrom(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const parsed = Number.parseInt(value, 10);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function parseHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of (raw ?? "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export function readEnvironment(
  env: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
): Environment {
  const homeDir = nonEmpty(env.HOME) ?? homedir();
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value;
  const aliasOverrides: Record<string, string> = {};
  for (const alias of ["opus", "sonnet", "haiku", "fable"]) {
    // ANTHROPIC_SMALL_FAST_MODEL: the older name of the haiku pin, still in gateway setups.
    const pinned = nonEmpty(env[`ANTHROPIC_DEFAULT_${alias.toUpperCase()}_MODEL`]) ?? (alias === "haiku" ? nonEmpty(env.ANTHROPIC_SMALL_FAST_MODEL) : undefined);
    if (pinned) aliasOverrides[alias] = pinned;
  }
  const defaultModel = nonEmpty(env.ANTHROPIC_DEFAULT_MODEL);
  if (defaultModel) aliasOverrides.default = defaultModel;
  return {
    configDir: nonEmpty(env.CLEW_CONFIG_DIR) ?? join(homeDir, ".clew"),
    homeDir,
    cwd,
    promptCaching: {
      off: truthy(env.DISABLE_PROMPT_CACHING),
      offFamilies: ["opus", "sonnet", "haiku", "fable"].filter((family) => truthy(env[`DISABLE_PROMPT_CACHING_${family.toUpperCase()}`])),
      oneHour: truthy(env.ENABLE_PROMPT_CACHING_1H) && !truthy(env.FORCE_PROMPT_CACHING_5M),
    },
    subprocessEnvScrub: truthy(env.CLAUDE_CODE_SUBPROCESS_ENV_SCRUB),
    addDirInstructions: truthy(env.CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD),
    disableAutoMemory: truthy(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY),
    skipPromptHistory: truthy(env.CLAUDE_CODE_SKIP_PROMPT_HISTORY),
    skillListingBudgetChars: intFrom(env.SLASH_COMMAND_TOOL_CHAR_BUDGET),
    maxContextTokens: intFrom(env.CLAUDE_CODE_MAX_CONTEXT_TOKENS),
    managedSettingsDirs: managedSettingsDirs(env),
    apiKey: nonEmpty(env.ANTHROPIC_API_KEY),
    authToken: nonEmpty(env.ANTHROPIC_AUTH_TOKEN),
    apiKeyHelperTtlMs: intFrom(env.CLAUDE_CODE_API_KEY_HELPER_TTL_MS),
    baseURL: nonEmpty(env.ANTHROPIC_BASE_URL),
    model: nonEmpty(env.ANTHROPIC_MODEL),
    aliasOverrides,
    customHeaders: {
      ...parseHeaders(env.ANTHROPIC_CUSTOM_HEADERS),
      ...(nonEmpty(env.ANTHROPIC_BETAS) ? { "anthropic-beta": (env.ANTHROPIC_BETAS as string).split(",").map((beta) => beta.trim()).filter(Boolean).join(",") } : {}),
    },
    maxRetries: intFrom(env.CLEW_MAX_RETRIES ?? env.CLAUDE_CODE_MAX_RETRIES),
    retryWatchdog: truthy(env.CLAUDE_CODE_RETRY_WATCHDOG) ? { maxWaitMs: intFrom(env.CLAUDE_CODE_RETRY_WATCHDOG_MAX_WAIT_MS) } : undefined,
    maxOutputTokens: intFrom(env.CLAUDE_CODE_MAX_OUTPUT_TOKENS),
    maxThinkingTokens: intFrom(env.MAX_THINKING_TOKENS),
    effortLevel: nonEmpty(env.CLAUDE_CODE_EFFORT_LEVEL),
    maxTurns: intFrom(env.CLAUDE_CODE_MAX_TURNS),
    streamIdleTimeoutMs: intFrom(env.CLEW_STREAM_IDLE_TIMEOUT_MS ?? env.CLAUDE_STREAM_IDLE_TIMEOUT_MS),
    requestTimeoutMs: intFrom(env.API_TIMEOUT_MS),
    bashDefaultTimeoutMs: intFrom(env.BASH_DEFAULT_TIMEOUT_MS),
    bashMaxTimeoutMs: intFrom(env.BASH_MAX_TIMEOUT_MS),
    bashMaxOutputChars: intFrom(env.BASH_MAX_OUTPUT_LENGTH),
    readMaxTokens: intFrom(env.CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS),
    contextWindow: intFrom(env.CLEW_CONTEXT_WINDOW ?? env.CLAUDE_CODE_AUTO_COMPACT_WINDOW),
    sessionEndHooksTimeoutMs: intFrom(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS),
    stopHookBlockCap: intFrom(env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP),
    autoCompactPercent: intFrom(env.CLEW_AUTOCOMPACT_PCT ?? env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE),
    disableAutoCompact: truthy(env.DISABLE_AUTO_COMPACT),
    disableCompact: truthy(env.DISABLE_COMPACT),
    noColor: nonEmpty(env.NO_COLOR) !== undefined,
    plainTerminal: env.TERM === "dumb" || truthy(env.CLEW_SCREEN_READER),
    pluginsDir: nonEmpty(env.CLEW_PLUGIN_DIR) ?? join(nonEmpty(env.CLEW_CONFIG_DIR) ?? join(homeDir, ".clew"), "plugins"),
    githubToken: nonEmpty(env.GITHUB_TOKEN) ?? nonEmpty(env.GH_TOKEN),
    pluginAutoUpdate: { forced: truthy(env.FORCE_AUTOUPDATE_PLUGINS), disabled: truthy(env.DISABLE_AUTOUPDATER) || truthy(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC) },
    nonessentialTrafficDisabled: truthy(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC),
    mcpTimeoutMs: intFrom(env.MCP_TIMEOUT),
    mcpToolTimeoutMs: intFrom(env.MCP_TOOL_TIMEOUT),
    maxMcpOutputTokens: intFrom(env.MAX_MCP_OUTPUT_TOKENS),
    mcpConnectionBlocking: env.MCP_CONNECTION_NONBLOCKING !== undefined && !truthy(env.MCP_CONNECTION_NONBLOCKING),
    mcpConnectionNonblocking: env.MCP_CONNECTION_NONBLOCKING === undefined ? undefined : truthy(env.MCP_CONNECTION_NONBLOCKING),
    mcpConnectWaitMs: intFrom(env.MCP_CONNECT_TIMEOUT_MS),
    enableToolSearch: nonEmpty(env.ENABLE_TOOL_SEARCH),
    disableExperimentalBetas: truthy(env.CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS),
    maxConcurrentSubagents: intFrom(env.CLAUDE_CODE_MAX_CONCURRENT_SUBAGENTS),
    maxSubagentDepth: intFrom(env.CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH),
    subagentModel: nonEmpty(env.CLAUDE_CODE_SUBAGENT_MODEL),
    disableBackgroundTasks: truthy(env.CLAUDE_CODE_DISABLE_BACKGROUND_TASKS),
    disableExplorePlanAgents: truthy(env.CLAUDE_CODE_DISABLE_EXPLORE_PLAN_AGENTS),
    disableBuiltinAgents: truthy(env.CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS),
    unsandboxedRoot:
      process.getuid?.() === 0 && !truthy(env.IS_SANDBOX) && !existsSync("/.dockerenv") && !existsSync("/run/.containerenv"),
    childEnv,
    update: updateEnvironment(env),
  };
}

function updateEnvironment(env: Record<string, string | undefined>): UpdateEnvironment {
  const switches = ["DISABLE_UPDATES", "CLEW_DISABLE_AUTOUPDATE", "DISABLE_AUTOUPDATER", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"];
  const by = switches.find((name) => truthy(env[name]));
  return {
    url: nonEmpty(env.CLEW_UPDATE_URL),
    pinVersion: nonEmpty(env.CLEW_PIN_VERSION),
    trustedKeyFile: nonEmpty(env.CLEW_TRUSTED_KEY),
    disableAutoUpdate: { disabled: by !== undefined, by },
    disableUpdates: truthy(env.DISABLE_UPDATES),
    executablePath: process.execPath,
  };
}

/**
 * clew's own managed directory first, then Claude Code's, so an organisation that already deploys
 * Claude Code policy gets it enforced in clew too. `CLEW_MANAGED_SETTINGS_DIR` replaces both
 * (tests point it at a fixture; an empty string is treated as unset).
 */
export function managedSettingsDirs(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const override = nonEmpty(env.CLEW_MANAGED_SETTINGS_DIR);
  if (override) return [override];
  if (platform === "darwin") return ["/Library/Application Support/Clew", "/Library/Application Support/ClaudeCode"];
  if (platform === "win32") return ["C:\\Program Files\\Clew", "C:\\Program Files\\ClaudeCode"];
  return ["/etc/clew", "/etc/claude-code"];
}

/** `~/.clew/projects/<encoded start dir>`: every non-alphanumeric character becomes `-`. */
export function projectStateDir(configDir: string, projectDir: string): string {
  let encoded = projectDir.replace(/[^A-Za-z0-9]/g, "-");
  if (encoded.length > 200) {
    const hash = new Bun.CryptoHasher("sha256").update(projectDir).digest("hex").slice(0, 8);
    encoded = `${encoded.slice(0, 200)}-${hash}`;
  }
  return join(configDir, "projects", encoded);
}
