/**
 * Builds the session's hook engine from every source that defines hooks (settings layers now;
 * plugins and skill/agent frontmatter feed `collectHooks` the same way), or nothing at all when
 * none does — a session without hooks never loads the engine. Hooks from an untrusted folder's
 * shared project settings do not run; the user is told once, with the command that trusts it.
 */
import type { HookEngine, HookEngineOptions } from "../hooks/engine.ts";
import type { FiredHookEvent } from "../hooks/events.ts";
import type { AsyncHookResult, FireOptions, HookOutcomes } from "../hooks/outcomes.ts";
import type { HookEventFields } from "../hooks/inputs.ts";
import type { MatcherRule } from "../hooks/types.ts";
import type { HookCommonInput } from "../hooks/inputs.ts";
import type { PromptPort } from "../hooks/run-prompt.ts";
import type { HookConfig, HookProblem, HookRunRecord, HookSource, HookStartInfo } from "../hooks/types.ts";
import { approveHooks, hooksApproved } from "../settings/hook-approvals.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { reportCapped, START_UP_LINES } from "./report-lines.ts";

export interface HooksSetupInput {
  loaded: LoadedSettings;
  projectDir: string;
  env: Readonly<Record<string, string>>;
  common: () => HookCommonInput;
  matchesRule: (rule: string, toolName: string, toolInput: Record<string, unknown>) => Promise<boolean>;
  prompt?: PromptPort;
  /** Where SessionStart hooks write `export X=…` lines (CLAUDE_ENV_FILE). */
  envFile?: string;
  spill?: (text: string) => string | undefined;
  sessionEndBudgetMs?: number;
  /** One line for the user (stderr in `-p`, a notice in the UI). */
  report: (line: string) => void;
  onHookStarted?: (info: HookStartInfo) => void;
  onHookFinished?: (record: HookRunRecord) => void;
  /** Extra sources: plugins' hooks.json, skill and agent frontmatter. */
  extraSources?: readonly HookSource[];
  /** Plugins' hooks known from their stored record: compiled once one of their events matters. */
  deferred?: DeferredHooks;
  /** Asked before a plugin's hook runs: false when its folder changed since install. */
  admitPlugin?: (root: string) => boolean;
  /** clew's user folder, where approvals of an untrusted folder's hooks are kept. */
  configDir: string;
  /** Interactive sessions: asks whether an untrusted folder's hooks may run (undefined: they do not). */
  approve?: HookApprovalPort;
}

export type HookApprovalPort = (request: { files: string[]; commands: string[] }) => Promise<"yes" | "always" | "no">;

export interface HooksSetup {
  engine: HookEngine;
  config: HookConfig;
  /** A skill was invoked: its frontmatter hooks join the configuration (once per skill). */
  addSource(source: HookSource): void;
}

/**
 * Hooks a start knows without compiling them (plugins' hooks, from their stored record): the
 * events they handle and their problems as start-up lines, both found when the record was written.
 */
export interface DeferredHooks {
  sources: readonly HookSource[];
  events: readonly string[];
  /** The first start-up lines (at least as many as a start prints) … */
  lines: readonly string[];
  /** … of this many (when only the first are kept). */
  lineCount?: number;
}

/** Compiles the sources once to describe them for a stored record (policy aside: it may change). */
export async function describeHooks(sources: readonly HookSource[], projectDir: string): Promise<Omit<DeferredHooks, "sources">> {
  const { collectHooks } = await import("../hooks/collect.ts");
  const config = collectHooks(sources, { projectDir });
  return { events: [...new Set(config.hooks.map((hook) => hook.event))], lines: config.problems.filter((problem) => problem.severity !== "notice").map(formatHookProblem) };
}

function formatHookProblem(problem: HookProblem): string {
  const where = problem.keyPath && !problem.message.startsWith(problem.keyPath) ? `: ${problem.keyPath}` : "";
  return `clew: ${problem.file}${where}: ${problem.message}`;
}

function hasSettingsHooks(loaded: LoadedSettings): boolean {
  const hooks: unknown = loaded.settings.hooks;
  return typeof hooks === "object" && hooks !== null && Object.keys(hooks).length > 0;
}

export async function setUpHooks(input: HooksSetupInput, force = false): Promise<HooksSetup | undefined> {
  const extra = input.extraSources ?? [];
  const deferred = input.deferred;
  if (!force && !hasSettingsHooks(input.loaded) && extra.length === 0 && !deferred?.sources.length) return undefined;
  const [{ collectHooks, policyBlock }, { hookPolicyFromSettings, hookSourcesFromSettings }, { matcherAccepts }] = await Promise.all([
    import("../hooks/collect.ts"),
    import("../hooks/settings-sources.ts"),
    import("../hooks/matcher.ts"),
  ]);
  const sources = [...hookSourcesFromSettings(input.loaded), ...extra];
  const policy = hookPolicyFromSettings(input.loaded);
  const config = collectHooks(sources, { projectDir: input.projectDir, policy });
  const fromPlugins = new Set(config.sources.filter((source) => source.origin.kind === "plugin").map((source) => source.id));
  const shown = config.problems.filter((problem) => problem.severity !== "notice");
  for (const problem of shown) if (!fromPlugins.has(problem.sourceId)) input.report(formatHookProblem(problem));
  const pluginLines = [...shown.filter((problem) => fromPlugins.has(problem.sourceId)).map(formatHookProblem), ...(deferred?.lines ?? [])];
  const more = (count: number) => `clew: ${count} more problems in plugins' hooks; /hooks lists every hook with its problem.`;
  const total = pluginLines.length - (deferred?.lines.length ?? 0) + (deferred?.lineCount ?? deferred?.lines.length ?? 0);
  if (total === pluginLines.length) reportCapped(input.report, pluginLines, more);
  else {
    // Only the first of the stored lines are at hand: as many as are printed, then the count.
    input.report(pluginLines.slice(0, START_UP_LINES).join("\n"));
    input.report(more(total - START_UP_LINES));
  }
  const trusted = input.loaded.trusted;
  const held = config.sources.filter((source) => source.sharedProject && source.handlerCount > 0);
  let approved = false;
  if (!trusted && held.length > 0) {
    const files = [...new Set(held.map((source) => source.file))];
    // One approval covers this exact configuration; a changed hook asks again.
    const hash = held.map((source) => source.hash).sort().join(":");
    approved = hooksApproved(input.configDir, input.projectDir, hash);
    if (!approved && input.approve) {
      const { listHooks } = await import("../hooks/listing.ts");
      const heldIds = new Set(held.map((source) => source.id));
      const commands = listHooks(config).hooks.filter((hook) => heldIds.has(hook.sourceId)).map((hook) => `${hook.event}${hook.matcher ? ` (${hook.matcher})` : ""}: ${hook.command}`);
      const answer = await input.approve({ files, commands });
      approved = answer !== "no";
      if (answer === "always") approveHooks(input.configDir, input.projectDir, hash);
    }
    if (!approved) input.report(`clew: hooks in ${files.join(", ")} are not run: this folder is not trusted. To run them, run: clew trust ${JSON.stringify(input.projectDir)}`);
  }
  const options: HookEngineOptions = {
    config,
    env: input.env,
    common: input.common,
    matchesRule: input.matchesRule,
    ...(input.prompt ? { prompt: input.prompt } : {}),
    allow: (_hook, source) => (trusted || approved || !source.sharedProject) && (source.origin.kind !== "plugin" || input.admitPlugin?.(source.origin.root) !== false),
    ...(input.envFile ? { envFile: input.envFile } : {}),
    ...(input.spill ? { spill: input.spill } : {}),
    ...(input.sessionEndBudgetMs !== undefined ? { sessionEndBudgetMs: input.sessionEndBudgetMs } : {}),
    ...(input.onHookStarted ? { onHookStarted: input.onHookStarted } : {}),
    ...(input.onHookFinished ? { onHookFinished: input.onHookFinished } : {}),
  };
  // Deferred hooks the policy keeps from running never need compiling to answer "any hooks for X?".
  const live = deferred?.sources.some((source) => policyBlock(source.origin, policy) === undefined) === true;
  const engine = new LazyHookEngine(options, matcherAccepts, deferred && deferred.sources.length > 0 ? {
    events: new Set(live ? deferred.events : []),
    compile: () => {
      sources.push(...deferred.sources);
      return collectHooks(sources, { projectDir: input.projectDir, policy });
    },
  } : undefined);
  const added = new Set<string>();
  const addSource = (source: HookSource): void => {
    const key = JSON.stringify(source.origin);
    if (added.has(key)) return;
    added.add(key);
    engine.expand();
    sources.push(source);
    const next = collectHooks(sources, { projectDir: input.projectDir, policy });
    for (const problem of next.problems.filter((found) => found.sourceId === next.sources.at(-1)?.id && found.severity !== "notice")) input.report(formatHookProblem(problem));
    engine.setConfig(next);
  };
  return { engine, config, addSource };
}

/** Tool events name the tool a matcher filters on (hooks.md §3). */
const TOOL_EVENTS = new Set<string>(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"]);

/**
 * The engine, loaded the first time a hook has to run: the configuration is collected (and its
 * problems reported) at start-up, but running code — processes, HTTP, prompts — loads only when
 * an event some hook accepts happens. A session whose hooks never match pays for none of it.
 */
class LazyHookEngine implements HookEngine {
  private engine: HookEngine | undefined;
  private loading: Promise<HookEngine> | undefined;

  constructor(
    private options: HookEngineOptions,
    private readonly accepts: (rule: MatcherRule, value: string | undefined) => boolean,
    /** Sources left out of `options.config` until one of their events matters, or all are listed. */
    private deferred?: { events: ReadonlySet<string>; compile: () => HookConfig },
  ) {}

  /** Every hook, the deferred ones compiled in (what `/hooks` lists). */
  get config(): HookConfig {
    this.expand();
    return this.current();
  }

  private current(): HookConfig {
    return this.engine?.config ?? this.options.config;
  }

  expand(event?: string): void {
    if (!this.deferred || (event !== undefined && !this.deferred.events.has(event))) return;
    const { compile } = this.deferred;
    this.deferred = undefined;
    this.setConfig(compile());
  }

  private load(): Promise<HookEngine> {
    this.loading ??= import("../hooks/engine.ts").then(({ createHookEngine }) => (this.engine = createHookEngine(this.options)));
    return this.loading;
  }

  hasHooks(event: FiredHookEvent): boolean {
    this.expand(event);
    return this.current().hooks.some((hook) => hook.event === event && hook.inactive === undefined);
  }

  hasHooksFor(event: FiredHookEvent, toolName: string): boolean {
    if (!TOOL_EVENTS.has(event)) return this.hasHooks(event);
    this.expand(event);
    return this.current().hooks.some((hook) => hook.event === event && hook.inactive === undefined && this.accepts(hook.rule, toolName));
  }

  async fire<E extends FiredHookEvent>(event: E, fields: HookEventFields[E], fireOptions?: FireOptions): Promise<HookOutcomes[E]> {
    this.expand(event);
    return (await this.load()).fire(event, fields, fireOptions);
  }

  setConfig(config: HookConfig): void {
    this.options = { ...this.options, config };
    this.engine?.setConfig(config);
  }

  started(): number {
    return this.engine?.started?.() ?? 0;
  }

  takeAsyncResults(): AsyncHookResult[] {
    return this.engine?.takeAsyncResults() ?? [];
  }

  pendingAsync(): number {
    return this.engine?.pendingAsync() ?? 0;
  }

  waitForAsync(signal?: AbortSignal): Promise<void> {
    return this.engine?.waitForAsync(signal) ?? Promise.resolve();
  }

  close(): Promise<void> {
    return this.engine?.close() ?? Promise.resolve();
  }
}
