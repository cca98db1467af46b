/**
 * The composition root: resolves settings, model, tools, permissions, transcript and prompt
 * once, then hands the loop everything it needs. Nothing below this file reads the environment.
 */
import { join, resolve } from "node:path";
import { withMessageBreakpoints } from "../context/cache-points.ts";
import { findRepoRoot } from "../context/instructions.ts";
import { buildSystem, dynamicSections } from "../context/system-prompt.ts";
import { ToolExecutor } from "../loop/execute.ts";
import type { LoopDeps } from "../loop/loop.ts";
import { createStreamFn, preconnect, preloadSdk } from "../model/client.ts";
import { modelAllowed } from "../model/allowlist.ts";
import { DEFAULT_MODEL_ALIAS, modelInfo, resolveModelId } from "../model/models.ts";
import type { MessageParam } from "../model/types.ts";
import { loadSettings } from "../settings/load.ts";
import { subprocessEnv } from "../util/subprocess-env.ts";
import { sweepAfter } from "./session-retention.ts";
import { sessionOutputStyle } from "./output-style-setup.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { formatProblem } from "../settings/problems.ts";
import { projectStateDir } from "../settings/paths.ts";
import { withSettingsEnv } from "../settings/env-block.ts";
import { updatePending } from "../update/state.ts";
import { isSessionId, transcriptPath } from "../store/sessions.ts";
import { TranscriptWriter } from "../store/transcript.ts";
import { FileTracker } from "../tools/shared/file-tracker.ts";
import { ShellJobRegistry } from "../tools/shared/shell-jobs.ts";
import type { ToolSession } from "../tools/types.ts";
import { FatalError } from "../util/errors.ts";
import { ContextManager } from "./context-manager.ts";
import { loadStartupInstructions } from "./instruction-context.ts";
import { setUpPermissions } from "./permission-setup.ts";
import { createRecorder, recordHistory } from "./recorder.ts";
import { loadResumed } from "./resume.ts";
import type { SessionOptions } from "./session-options.ts";
import { Session, type SessionInfo } from "./session.ts";
import { loadSessionExtensions } from "./extensions-setup.ts";
import { renderItem, type InvocationDeps } from "./invocations.ts";
import { combineWatchers, NestedSkillWatcher } from "./nested-skills.ts";
import type { HookSink } from "./session-hooks.ts";
import { blocksEveryPluginHook } from "../hooks/policy.ts";
import { hookPolicyFromSettings } from "../hooks/settings-sources.ts";
import { builtinTools, selectTools } from "./tool-set.ts";
import { agentTool } from "../tools/agent.ts";
import { agentToolDescription, helperTypeFinder, helperTypeListing, helperTypeNames, mainThreadAgent, SubagentRunner } from "./subagents-setup.ts";
import { helperTools } from "./subagents/helper-tools.ts";
import { firstRequestSignal, initServers, startSessionMcp } from "./mcp-setup.ts";
import { schemaWarmUp } from "./warm-up.ts";
import { cachePolicyFor } from "../model/cache-policy.ts";
import { finalOutputSetup } from "./final-output-setup.ts";
import { BARE_INSTRUCTIONS, BARE_TOOLS, bareSettings } from "./bare-mode.ts";
import { backgroundWork } from "./background-work.ts";
import { loadSessionPlugins, reportPluginProblems, rolloutMayBeDue } from "./plugins-setup.ts";
import { sideModelPort } from "./side-model.ts";
import { sessionTools } from "./session-tools.ts";
import { toolVisibility } from "../permissions/rules.ts";
import { UsageLedger, usageCostUSD } from "./usage-ledger.ts";
import { startTelemetry } from "../telemetry/index.ts";
import { isGitRepo, spillTo, toolLimits, withBetas } from "./session-env.ts";
import { startReasoning } from "./thinking-setup.ts";
import { setUpSandbox } from "./sandbox-setup.ts";
import { sessionCheckpoints } from "./checkpoints-setup.ts";
import { apiProxy, sessionCredentials } from "./credentials.ts";
import { allowedModel, fallbackChain, helperModel } from "./model-choice.ts";

export type { SessionOptions };

/** Hard ceiling for any one tool call: above Bash's own maximum so Bash reports its timeout itself. */
const TOOL_CEILING_MARGIN_MS = 60_000;
const MAX_RESULT_CHARS = 100_000;
const IDLE_TIMEOUT_MS = 90_000;
const GC_EVERY_REQUESTS = 6;
/** Layers of helpers below the main conversation (a helper's helper is the last). */
const DEFAULT_HELPER_DEPTH = 2;
const DEFAULT_CONCURRENT_HELPERS = 10;

export async function openSession(options: SessionOptions): Promise<Session> {
  preloadSdk();
  const now = options.now ?? (() => new Date());
  const read = loadSettings({
    startDir: options.env.cwd,
    configDir: options.env.configDir,
    managedDirs: options.env.managedSettingsDirs,
    cli: options.cli,
    homeDir: options.env.homeDir,
    keepDenyOnError: options.keepDenyOnError,
  });
  // --bare and --safe-mode: nothing is discovered (app/bare-mode.ts); --bare also keeps to three tools.
  const minimal = options.bare === true || options.safeMode === true;
  const loaded = minimal ? bareSettings(read) : read;
  for (const problem of loaded.problems) options.report(`clew: ${formatProblem(problem, options.env.homeDir)}`);
  const { settings } = loaded;
  const env = withSettingsEnv(options.env, loaded, options.report);
  const credentials = sessionCredentials(env, loaded);
  const proxy = apiProxy(env);
  preconnect(env.baseURL, proxy);

  const stateDir = projectStateDir(env.configDir, env.cwd);
  const resumed = options.resume ? loadResumed(env, stateDir, options.resume) : undefined;
  let modelChoice = options.cli.model ?? env.model ?? settings.model;
  let model = allowedModel(modelChoice, resolveModelId(resumed?.model ?? DEFAULT_MODEL_ALIAS, env.aliasOverrides), loaded, env.aliasOverrides);
  let info = modelInfo(model);
  if (options.sessionId !== undefined && !isSessionId(options.sessionId)) {
    throw new FatalError("usage", `error: --session-id must be a valid UUID (got '${options.sessionId}').`);
  }
  const forked = resumed !== undefined && options.fork === true;
  const sessionId = (forked ? undefined : resumed?.sessionId) ?? options.sessionId ?? crypto.randomUUID();

  const selected = selectTools(builtinTools, options.tools ?? (options.bare ? BARE_TOOLS : undefined), []);
  if (selected.unknown.length > 0) {
    throw new FatalError("usage", `Unknown tool name(s) in --tools: ${selected.unknown.join(", ")}`, `Built-in tools are: ${builtinTools.map((t) => t.name).join(", ")}.`);
  }
  const finalOutput = await finalOutputSetup(options.jsonSchema);
  if (finalOutput) selected.tools.push(finalOutput.tool);
  const windowTokens = options.autoCompactWindow ?? env.contextWindow ?? settings.autoCompactWindow ?? (info.costBasis === "unknown" ? env.maxContextTokens : undefined) ?? info.contextWindow;
  if (rolloutMayBeDue(env, loaded)) await (await import("./team-rollout.ts")).rolloutAtStart(env, loaded, options.consentRollout, options.report);
  const plugins = await loadSessionPlugins({ env, loaded, pluginDirs: options.pluginDirs ?? [], report: options.report });
  if (plugins) reportPluginProblems(options.report, plugins);
  const extensionsCache = join(env.configDir, "cache", "extensions");
  const skillListingBudget = env.skillListingBudgetChars ?? Math.max(8_000, Math.floor(windowTokens * 0.04));
  const extensions = await loadSessionExtensions({
    cwd: env.cwd,
    projectRoot: findRepoRoot(env.cwd),
    userDir: env.configDir,
    managedDirs: env.managedSettingsDirs,
    addDirs: settings.permissions.additionalDirectories.map((dir) => resolve(env.cwd, dir)),
    cacheDir: extensionsCache,
    ...(minimal ? { noDiscovery: true } : {}),
    budgetChars: skillListingBudget,
    ...(options.agentsJson !== undefined ? { agentsJson: options.agentsJson } : {}),
    ...(plugins ? { pluginSources: plugins.sources } : {}),
    ...(settings.skillOverrides ? { skillOverrides: settings.skillOverrides } : {}),
  });
  for (const problem of extensions.errors) options.report(`clew: ${problem.file}${problem.line ? `:${problem.line}` : ""}: ${problem.message}`);
  // --disable-slash-commands: no skill or command is offered, listed or expanded (helper agents stay).
  const noSkills = options.disableSlashCommands === true;
  if (extensions.modelInvocable === 0 || noSkills) selected.tools = selected.tools.filter((tool) => tool.name !== "Skill");
  const maxHelperDepth = env.maxSubagentDepth ?? DEFAULT_HELPER_DEPTH;
  if (maxHelperDepth < 1) selected.tools = selected.tools.filter((tool) => tool.name !== "Agent" && tool.name !== "SendMessage");
  const helperTypes = { registry: extensions.registry, withExplorePlan: !env.disableExplorePlanAgents, withBuiltins: !env.disableBuiltinAgents };
  const mainAgentName = options.agent ?? (typeof settings.agent === "string" && settings.agent !== "" ? settings.agent : undefined);
  const mainAgent = mainAgentName === undefined ? undefined : await mainThreadAgent(mainAgentName, helperTypes);
  if (mainAgent) {
    selected.tools = helperTools(selected.tools, mainAgent.type, { nesting: maxHelperDepth >= 1, background: false }).tools;
    const own = mainAgent.type.model;
    if (own && own !== "inherit" && options.cli.model === undefined && env.model === undefined && modelAllowed(resolveModelId(own, env.aliasOverrides), settings.availableModels, env.aliasOverrides)) {
      model = resolveModelId(own, env.aliasOverrides);
      info = modelInfo(model);
      modelChoice = own;
    }
  }
  const permissions = setUpPermissions({
    settings: loaded,
    flagMode: options.permissionMode,
    unsandboxedRoot: env.unsandboxedRoot,
    cwd: env.cwd,
    homeDir: env.homeDir,
    tools: selected.tools,
    ask: options.ask,
    shellCwd: () => toolSession.cwd,
    hooks: () => hooks,
  });
  for (const warning of permissions.warnings) options.report(`clew: ${warning}`);

  // A host answering approvals over a control channel (the Agent SDK) is headless all the same.
  const interactive = options.interactive ?? options.ask !== undefined;
  const firstRequest = firstRequestSignal(interactive);
  const mcpStart = await startSessionMcp({
    startAfter: firstRequest.out, env, loaded, cliConfigs: options.mcpConfigs ?? [], strict: options.strictMcpConfig === true || minimal, rules: permissions.rules, interactive, version: options.version, report: options.report, ...(options.hostMcpServers ? { hostServers: options.hostMcpServers } : {}), ...(plugins && plugins.mcpServers.length > 0 ? { pluginServers: plugins.mcpServers, admitPlugin: plugins.admits } : {}), ...(options.approveMcp ? { approve: options.approveMcp } : {}) });
  const mcp = mcpStart.mcp;
  const toolSet = await sessionTools({
    builtins: permissions.visibleTools,
    mcpTools: () => mcp?.tools() ?? [],
    agentDescription: agentToolDescription(agentTool.description, extensions.agents, helperTypes),
    toolSearch: { setting: env.enableToolSearch, windowTokens, denied: toolVisibility(permissions.rules, ["ToolSearch"]).length > 0, betasDisabled: env.disableExperimentalBetas },
    instructions: () => Object.fromEntries((mcp?.states() ?? []).flatMap((state) => (state.instructions ? [[state.name, state.instructions]] : []))),
  });
  const warmUp = schemaWarmUp(() => executor.tools);
  const cachePolicy = cachePolicyFor(env.promptCaching);
  let requestsSent = 0;
  const baseStream = createStreamFn({
    apiKey: env.apiKey,
    authToken: env.authToken,
    ...(credentials.keyHelper ? { keyHelper: credentials.keyHelper } : {}),
    ...(proxy ? { proxy } : {}),
    fallbackModels: fallbackChain(options.fallbackModel, settings.fallbackModel, model, loaded, env.aliasOverrides, options.report),
    baseURL: env.baseURL,
    maxRetries: Math.min(env.maxRetries ?? 10, 15),
    ...(env.retryWatchdog ? { retryWatchdog: env.retryWatchdog } : {}),
    idleTimeoutMs: env.streamIdleTimeoutMs ?? IDLE_TIMEOUT_MS,
    requestTimeoutMs: env.requestTimeoutMs ?? 600_000,
    headers: { "user-agent": `clew/${options.version}`, ...withBetas(env.customHeaders, toolSet.betas) },
    interleavedThinkingBeta: !env.disableExperimentalBetas,
    rawEvents: options.streamEvents !== false,
    ...(cachePolicy ? { cachePolicy } : {}),
    // Every request leaves a full copy of the history behind as JSON; collecting it every few
    // requests keeps a long session's peak memory near what is live (30 steps: 65 → 62 MiB; every
    // request: 60 MiB but +0.9 ms per step). The collection starts once a request is out, so the
    // collector works while the API answers rather than before the request leaves.
    onRequestSent: () => {
      warmUp();
      if (++requestsSent % GC_EVERY_REQUESTS === 0) Bun.gc(false);
    },
  });
  const stream = firstRequest.watch(baseStream);
  // After a self-update: this version reached the API, so it is not rolled back.
  void firstRequest.sent.then(async () => updatePending(env.configDir) && (await import("./update-startup.ts")).startupHealthy(env)).catch(() => undefined);
  // Installed plugins not checked yet (nothing of them was read or run so far) are checked now.
  if (plugins) void firstRequest.out.then(() => plugins.checkRest()).catch(() => undefined);

  const limits = toolLimits(env);
  const spillDir = options.persist ? join(stateDir, sessionId, "tool-results") : undefined;
  // Mutable: variables SessionStart hooks export (CLAUDE_ENV_FILE) reach later Bash calls.
  const childEnv: Record<string, string> = { ...subprocessEnv(env.childEnv, env.subprocessEnvScrub), CLAUDECODE: "1", CLEW: "1", ...(options.bare ? { CLAUDE_CODE_SIMPLE: "1" } : {}) };
  // Enabled plugins' bin/ folders come first on the Bash tool's PATH, while they are enabled.
  if (plugins && plugins.binDirs.length > 0) childEnv.PATH = [...plugins.binDirs, childEnv.PATH ?? ""].filter(Boolean).join(":");
  const toolSession: ToolSession = {
    projectDir: env.cwd,
    cwd: env.cwd,
    files: new FileTracker(),
    shells: new ShellJobRegistry(),
    todos: [],
    env: childEnv,
    limits,
    readDenied: permissions.readDenied,
    spillDir,
    skills: {
      load: async (name, args, signal) => {
        const resolved = (await invocations?.registry.get())?.resolveInvocation(name, "model");
        if (!invocations || !resolved) return { ok: false, message: `No skill named ${name} exists in this session.` };
        if (!resolved.ok) return { ok: false, message: resolved.message };
        return renderItem(invocations, resolved.item, args, signal);
      },
    },
    toolSearch: { search: (query, max) => toolSet.search?.search(query, max) ?? [] },
    agents: {
      run: (input, ctx) => subagents.run(input, ctx),
      send: (input, ctx) => subagents.send(input, ctx),
    },
    currentModel: () => loopDeps.request.model,
    sideModel: sideModelPort(stream, (name) => resolveModelId(name, env.aliasOverrides), () => ledger),
    sandbox: await setUpSandbox({ settings: loaded, gate: permissions.gate, cwd: env.cwd, homeDir: env.homeDir, configDir: env.configDir, path: childEnv.PATH ?? "", report: options.report }),
  };
  const invocations: InvocationDeps | undefined = !noSkills && extensions.registry ? {
    registry: extensions.registry,
    gate: permissions.gate,
    toolSession,
    sessionId,
    // A skill's frontmatter hooks apply once it is invoked; a repository's only in a trusted folder.
    onInvoke: (item) => sessionHooks?.addSkill({ name: item.name, file: item.file, hooks: item.hooks, shared: item.source.scope === "project" }),
  } : undefined;
  const path = (forked ? undefined : resumed?.path) ?? transcriptPath(stateDir, sessionId);
  const hookSink: HookSink = { emit: undefined };
  const skillHooks = extensions.withHooks;
  const pluginHooks = plugins?.hooks;
  // Plugins' hooks that the policy blocks whole (disableAllHooks, say) need no hook engine.
  const pluginHooksLive = pluginHooks !== undefined && pluginHooks.sources.length > 0 && !blocksEveryPluginHook(hookPolicyFromSettings(loaded), pluginHooks.managedForced);
  const sessionHooks = Object.keys(settings.hooks).length === 0 && !skillHooks && !pluginHooksLive ? undefined : await (await import("./session-hooks.ts")).startSessionHooks({
    loaded,
    toolSession,
    sessionId,
    transcriptPath: path,
    sessionDir: options.persist ? join(stateDir, sessionId) : undefined,
    mode: () => permissions.state.mode,
    permissionContext: permissions.context,
    tool: (name) => executor.tool(name),
    stream,
    resolveModel: (name) => resolveModelId(name, env.aliasOverrides),
    report: options.report,
    sink: hookSink,
    configDir: env.configDir,
    ...(plugins && pluginHooks && pluginHooks.sources.length > 0 ? { pluginHooks, admitPlugin: plugins.admits } : {}),
    ...(options.approveHooks ? { approve: options.approveHooks } : {}),
    startAfter: firstRequest.out,
    ...(env.sessionEndHooksTimeoutMs !== undefined ? { sessionEndBudgetMs: env.sessionEndHooksTimeoutMs } : {}),
  }, skillHooks);
  const hooks = sessionHooks?.engine;
  const executor = new ToolExecutor({
    tools: toolSet.tools,
    gate: permissions.gate,
    session: toolSession,
    toolTimeoutMs: limits.bashMaxTimeoutMs + TOOL_CEILING_MARGIN_MS,
    maxResultChars: MAX_RESULT_CHARS,
    spill: spillDir ? spillTo(spillDir) : undefined,
    ...(hooks ? { hooks } : {}),
  });

  const ledger = new UsageLedger(options.maxBudgetUsd);
  const helperNotices: string[] = [];
  const facts = { platform: process.platform, shell: env.childEnv.SHELL ?? "bash", isGitRepo: isGitRepo(env.cwd) };
  const subagents = new SubagentRunner({
    stream,
    resolveModel: (name) => helperModel(name, () => loopDeps.request.model, loaded, env.aliasOverrides),
    parentModel: () => loopDeps.request.model,
    forcedModel: env.subagentModel === "inherit" ? undefined : env.subagentModel,
    tools: () => executor.tools,
    gate: permissions.gate,
    parentMode: () => permissions.state.mode,
    hooks: () => hooks,
    startTypeServers: async (type) => (await import("./agent-mcp.ts")).startAgentServers({
      servers: type.mcpServers, origin: type.origin, shared: type.shared, trusted: loaded.trusted, cwd: env.cwd, env: childEnv,
      connectTimeoutMs: env.mcpTimeoutMs ?? 30_000, toolTimeoutMs: env.mcpToolTimeoutMs ?? 100_000_000, maxOutputTokens: env.maxMcpOutputTokens ?? 25_000,
      version: options.version, report: options.report,
    }),
    addTypeHooks: (type) => sessionHooks?.addAgent({ name: type.name, file: type.origin, ...(type.hooks ? { hooks: type.hooks } : {}), shared: type.shared }),
    ...helperTypeFinder(helperTypes),
    instructions: () => instructions.text,
    loadSkill: (name, signal) => toolSession.skills?.load(name, "", signal) ?? Promise.resolve({ ok: false, message: "no skills" }),
    parentSession: toolSession,
    services: {
      stream,
      facts,
      toolTimeoutMs: limits.bashMaxTimeoutMs + TOOL_CEILING_MARGIN_MS,
      maxResultChars: MAX_RESULT_CHARS,
      ...(spillDir ? { spill: spillTo(spillDir) } : {}),
      transcriptDir: options.persist ? join(stateDir, sessionId, "subagents") : undefined,
      ...(options.appendSubagentSystemPrompt ? { appendSystemPrompt: options.appendSubagentSystemPrompt } : {}),
      identity: { sessionId, version: options.version },
      now,
    },
    maxDepth: maxHelperDepth,
    maxConcurrent: env.maxConcurrentSubagents ?? DEFAULT_CONCURRENT_HELPERS,
    maxTurns: options.maxTurns ?? env.maxTurns,
    ledger,
    sink: hookSink,
    notify: (text) => helperNotices.push(text),
    backgroundDisabled: env.disableBackgroundTasks,
  });

  const instructions = minimal ? BARE_INSTRUCTIONS : await loadStartupInstructions(env, settings.claudeMdExcludes ?? [], settings.autoMemoryEnabled && !env.disableAutoMemory, settings.permissions.additionalDirectories);
  for (const problem of instructions.problems) options.report(`clew: ${problem}`);
  const style = minimal ? { name: "default", available: ["default"] } : await sessionOutputStyle({ loaded, cwd: env.cwd, projectRoot: () => findRepoRoot(env.cwd), userDir: env.configDir, report: options.report });
  const context = new ContextManager(
    {
      windowTokens,
      compactPercent: Math.min(100, Math.max(1, env.autoCompactPercent ?? settings.autoCompactPercent ?? 80)),
      autoCompact: settings.autoCompactEnabled && !env.disableAutoCompact && !env.disableCompact,
      files: toolSession.files,
      transcriptPath: () => (options.persist ? path : undefined),
      now,
      zone: { TZ: env.childEnv.TZ, TZDIR: env.childEnv.TZDIR },
      nested: combineWatchers([instructions.watcher, invocations ? new NestedSkillWatcher(invocations, env.cwd, extensionsCache) : undefined]),
    },
    () => loopDeps,
  );
  const loopDeps: LoopDeps = {
    stream,
    tools: {
      isReadOnly: (name) => executor.tool(name)?.access === "read",
      execute: (call, signal, emit) => executor.execute(call, signal, emit),
    },
    request: {
      model,
      maxTokens: Math.min(env.maxOutputTokens ?? info.maxOutputTokens, info.maxOutputTokens),
      system: buildSystem(
        { cwd: env.cwd, ...facts, model },
        { replace: options.systemPrompt ?? mainAgent?.prompt, language: settings.language, outputStyle: style.block, append: options.appendSystemPrompt, instructions: instructions.text, catalogues: noSkills ? undefined : extensions.catalogue, excludeDynamic: options.excludeDynamicSections },
      ),
      tools: toolSet.apiTools,
    },
    prepare: (messages) => withMessageBreakpoints(toolSet.prepare(messages)),
    beforeRequest: async (state, usage, emit, signal) => {
      if (hooks) (await import("./session-hooks.ts")).deliverAsyncResults(hooks, (text) => context.queue(text));
      for (const notice of helperNotices.splice(0)) context.queue(notice);
      await context.beforeRequest(state, usage, emit, signal);
    },
    limits: { maxTurns: options.maxTurns ?? env.maxTurns, maxOutputRecoveries: 3, budgetExceeded: () => ledger.exceeded(), ...(env.stopHookBlockCap !== undefined ? { stopHookBlockCap: env.stopHookBlockCap } : {}) },
    now: () => performance.now(),
    ...(options.streamEvents === false ? { streamEvents: false } : {}),
    ...(hooks ? { hooks } : {}),
    ...(finalOutput ? { finalOutput: finalOutput.port } : {}),
  };

  const reasoning = startReasoning({ envEffort: env.effortLevel, flagEffort: options.cli.effort, settingEffort: settings.effortLevel, maxThinkingTokens: env.maxThinkingTokens, alwaysThinkingEnabled: settings.alwaysThinkingEnabled }, loopDeps.request, options.report);

  const identity = { sessionId, cwd: env.cwd, version: options.version, gitBranch: "" };
  let writer: TranscriptWriter | undefined;
  if (options.persist) {
    writer =
      resumed && !forked ? TranscriptWriter.append(path, identity, resumed.leafUuid) : TranscriptWriter.create(path, identity, model, now());
    if (forked) recordHistory(writer, resumed.messages, now);
    // `-n NAME`: the session's title (Claude Code's record), found again by `--resume NAME`.
    if (options.name) writer.appendMeta({ type: "custom-title", customTitle: options.name });
  }
  // Off unless CLAUDE_CODE_ENABLE_TELEMETRY / CLEW_ENABLE_TELEMETRY: then it sees every recorded event and flushes on close.
  const telemetry = await startTelemetry({ processEnv: options.env.childEnv, settings: loaded, sessionId, version: options.version, configDir: env.configDir, model: () => loopDeps.request.model, effort: () => loopDeps.request.effort, resume: options.resume?.kind, costUSD: usageCostUSD, report: options.report });
  const recorder = telemetry.observe(writer ? createRecorder(writer, now) : undefined);
  hookSink.emit = recorder;
  const catalogue = toolSet.takeReminder();
  if (catalogue) context.queue(catalogue);
  const messages: MessageParam[] = resumed?.messages ?? [];
  if (options.excludeDynamicSections && messages.length === 0) context.queue(dynamicSections({ cwd: env.cwd, ...facts, model }, instructions.text));
  context.restoreFrom(messages);
  if (resumed && !forked && recorder && resumed.repairs) recorder(resumed.repairs);
  if (hooks) {
    const { fireSessionStart, fireSetup } = await import("./session-hooks.ts");
    const setup = options.setupTrigger ? await fireSetup(hooks, options.setupTrigger) : undefined;
    const start = await fireSessionStart(hooks, resumed && !forked ? "resume" : "startup", model);
    for (const outcome of [setup, start]) {
      for (const text of outcome?.additionalContext ?? []) context.queue(text);
      Object.assign(childEnv, outcome?.env ?? {});
      for (const line of [...(outcome?.systemMessages ?? []), ...(outcome?.errors ?? []), ...(outcome?.envProblems ?? [])]) options.report(`clew: ${line}`);
    }
  }

  let pluginList: SessionInfo["plugins"] | undefined;
  let serverList: SessionInfo["mcpServers"] | undefined;
  const sessionInfo: SessionInfo = {
    sessionId,
    model,
    cwd: env.cwd,
    tools: executor.tools.map((tool) => tool.name),
    // Listed when asked for, as the plugins are: a plain `-p` run never reads them.
    get mcpServers() {
      return (serverList ??= mcp ? initServers(mcp.states()) : initServers(mcpStart.idle));
    },
    mcpServerErrors: mcpStart.initErrors,
    // Listed when asked for (stream-json's init, the SDK): 600 plugins' ids are not read before the first request.
    get plugins() {
      return (pluginList ??= plugins?.ids.map((plugin) => ({ name: plugin.name, path: plugin.path })) ?? []);
    },
    agents: executor.tool("Agent") ? helperTypeNames(extensions.agents, helperTypes) : [],
    outputStyle: style.name,
    outputStyles: style.available,
    commands: noSkills ? [] : extensions.names.commands,
    skills: noSkills ? [] : extensions.names.skills,
    permissionMode: permissions.state.mode,
    transcriptPath: writer ? path : undefined,
    apiKeySource: credentials.source,
    baseURL: env.baseURL,
    version: options.version,
    instructionFiles: instructions.files,
  };
  // cleanupPeriodDays: expired sessions go once the first request is out; close() waits for the sweep.
  const housekeeping = options.persist && !minimal ? sweepAfter(firstRequest.out, { configDir: env.configDir, loaded, sessionId, now }) : undefined;
  return telemetry.closing(new Session(
    sessionInfo,
    { loopDeps, toolSession, context, permissions, settings: loaded, skillListingBudget, ...(housekeeping ? { housekeeping } : {}), ...(modelChoice ? { modelChoice } : {}), newTurn: () => baseStream.newTurn(), aliasOverrides: env.aliasOverrides, recorder, writer, reasoning, now, checkpoints: sessionCheckpoints({ enabled: settings.fileCheckpointingEnabled !== false, projectDir: env.cwd, stateDir, sessionId, path: env.childEnv.PATH ?? "", keep: settings.checkpointsPerSession, workingDirs: () => permissions.context().workingDirs, report: options.report }), ...(hooks ? { hooks } : {}), hookSink, ...(invocations ? { invocations } : {}), ...(interactive ? { afterFirstTurn: () => void backgroundWork(env, loaded, options) } : {}), helpers: { runner: subagents, notices: helperNotices, ledger, waitAtEnd: options.waitForBackground === true, listTypes: () => helperTypeListing(helperTypes) }, ...(mcp ? { mcp: { session: mcp, beforeTurn: () => {
      if (!toolSet.refresh()) return;
      executor.setTools(toolSet.tools);
      loopDeps.request.tools = toolSet.apiTools;
      const changed = toolSet.takeReminder();
      if (changed) context.queue(changed);
    } } } : {}) },
    messages,
  ));
}
