/**
 * Builds the session's hook engine from every source that defines hooks (settings layers now;
 * plugins and skill/agent frontmatter feed `collectHooks` the same way), or nothing at all when
 * none does — a session without hooks never loads the engine. Hooks from an untrusted folder's
 * shared project settings do not run; the user is told once, with the command that trusts it.
 */
import type { HookEngine, HookEngineOptions } from "../hooks/engine.ts";
import type { HookCommonInput } from "../hooks/inputs.ts";
import type { PromptPort } from "../hooks/run-prompt.ts";
import type { HookConfig, HookPolicy, HookProblem, HookRunRecord, HookSource, HookSourceInfo, HookStartInfo } from "../hooks/types.ts";
import { blocksEveryPluginHook } from "../hooks/policy.ts";
import { hookPolicyFromSettings } from "../hooks/settings-sources.ts";
import { approveHooks, hooksApproved } from "../settings/hook-approvals.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { LazyHookEngine, type PreparedHooks } from "./lazy-hook-engine.ts";
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
  /**
   * Headless sessions: settles once the first request is on its way. When nothing can ask before
   * then (no question to the user, no extra sources), the hooks are collected — and their problems
   * reported — only then, or when asked about an event some hook could be for.
   */
  startAfter?: Promise<unknown>;
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
  /** Plugins' hook blocks; their origins are read only when they are compiled. */
  sources: readonly HookSource[];
  /** Whether one of those plugins was forced on by managed settings: all the hook policy asks of them before they are compiled. */
  managedForced: boolean;
  events: readonly string[];
  /** The first start-up lines (at least as many as a start prints) … */
  lines: readonly string[];
  /** … of this many (when only the first are kept). */
  lineCount?: number;
}

/** Compiles the sources once to describe them for a stored record (policy aside: it may change). */
export async function describeHooks(sources: readonly HookSource[], projectDir: string): Promise<Omit<DeferredHooks, "sources" | "managedForced">> {
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

type HookModules = [typeof import("../hooks/collect.ts"), typeof import("../hooks/settings-sources.ts"), typeof import("../hooks/matcher.ts")];

/** At start-up, beside the rest of it. */
function importHookModules(): Promise<HookModules> {
  return Promise.all([import("../hooks/collect.ts"), import("../hooks/settings-sources.ts"), import("../hooks/matcher.ts")]);
}

/** On first need, which may be a synchronous question ("any hooks for X?"). */
function requireHookModules(): HookModules {
  return [require("../hooks/collect.ts") as HookModules[0], require("../hooks/settings-sources.ts") as HookModules[1], require("../hooks/matcher.ts") as HookModules[2]];
}

interface Collected {
  modules: HookModules;
  sources: HookSource[];
  policy: HookPolicy;
  config: HookConfig;
  /** The untrusted folder's shared sources whose hooks may not run unless approved. */
  held: HookSourceInfo[];
}

/** Collects every source's hooks and reports their problems (the plugins' capped, with the stored lines). */
function collect(input: HooksSetupInput, modules: HookModules): Collected {
  const [{ collectHooks }, { hookPolicyFromSettings, hookSourcesFromSettings }] = modules;
  const deferred = input.deferred;
  const sources = [...hookSourcesFromSettings(input.loaded), ...(input.extraSources ?? [])];
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
  const held = input.loaded.trusted ? [] : config.sources.filter((source) => source.sharedProject && source.handlerCount > 0);
  return { modules, sources, policy, config, held };
}

/** One approval covers this exact configuration of the held sources; a changed hook asks again. */
function heldHash(held: readonly HookSourceInfo[]): string {
  return held.map((source) => source.hash).sort().join(":");
}

/** Whether the held hooks may run: approved before, or now (interactive sessions ask). */
async function approval(input: HooksSetupInput, collected: Collected): Promise<boolean> {
  const { held, config } = collected;
  if (held.length === 0) return false;
  const hash = heldHash(held);
  let approved = hooksApproved(input.configDir, input.projectDir, hash);
  if (!approved && input.approve) {
    const { listHooks } = await import("../hooks/listing.ts");
    const heldIds = new Set(held.map((source) => source.id));
    const commands = listHooks(config).hooks.filter((hook) => heldIds.has(hook.sourceId)).map((hook) => `${hook.event}${hook.matcher ? ` (${hook.matcher})` : ""}: ${hook.command}`);
    const answer = await input.approve({ files: heldFiles(held), commands });
    approved = answer !== "no";
    if (answer === "always") approveHooks(input.configDir, input.projectDir, hash);
  }
  return approved;
}

function heldFiles(held: readonly HookSourceInfo[]): string[] {
  return [...new Set(held.map((source) => source.file))];
}

/** The engine's options and the plugins' deferred hooks, once the configuration is collected and its trust settled. */
function prepared(input: HooksSetupInput, collected: Collected, approved: boolean): PreparedHooks {
  const { modules, sources, policy, config, held } = collected;
  const [{ collectHooks }, , { matcherAccepts }] = modules;
  const trusted = input.loaded.trusted;
  const files = heldFiles(held);
  if (held.length > 0 && !approved) input.report(`clew: hooks in ${files.join(", ")} are not run: this folder is not trusted. To run them, run: clew trust ${JSON.stringify(input.projectDir)}`);
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
  const deferred = input.deferred;
  // Deferred hooks the policy keeps from running never need compiling to answer "any hooks for X?".
  const live = deferred !== undefined && deferred.sources.length > 0 && !blocksEveryPluginHook(policy, deferred.managedForced);
  return {
    options,
    accepts: matcherAccepts,
    ...(deferred && deferred.sources.length > 0
      ? {
          deferred: {
            events: new Set(live ? deferred.events : []),
            compile: () => {
              sources.push(...deferred.sources);
              return collectHooks(sources, { projectDir: input.projectDir, policy });
            },
          },
        }
      : {}),
  };
}

/**
 * Every event a hook could be for before the configuration is collected: the settings' hook
 * events (the settings loader validated and merged them) and the plugins' events that the policy
 * lets run. Undefined when the configuration has to be collected now.
 */
function earlyEvents(input: HooksSetupInput): ReadonlySet<string> | undefined {
  // A question to the user belongs to the start, and extra sources are not known by their events.
  if (input.startAfter === undefined || input.approve !== undefined || (input.extraSources?.length ?? 0) > 0) return undefined;
  const hooks: unknown = input.loaded.settings.hooks;
  const events = new Set(typeof hooks === "object" && hooks !== null ? Object.keys(hooks) : []);
  const deferred = input.deferred;
  if (deferred && deferred.sources.length > 0 && !blocksEveryPluginHook(hookPolicyFromSettings(input.loaded), deferred.managedForced)) {
    for (const event of deferred.events) events.add(event);
  }
  return events;
}

export async function setUpHooks(input: HooksSetupInput, force = false): Promise<HooksSetup | undefined> {
  const extra = input.extraSources ?? [];
  const deferred = input.deferred;
  if (!force && !hasSettingsHooks(input.loaded) && extra.length === 0 && !deferred?.sources.length) return undefined;
  const early = earlyEvents(input);
  let collected: Collected | undefined;
  let engine: LazyHookEngine;
  if (early === undefined) {
    collected = collect(input, await importHookModules());
    engine = new LazyHookEngine({ now: prepared(input, collected, await approval(input, collected)) });
  } else {
    // Headless: collected (and its problems reported) once the first request is on its way, or
    // when something asks about an event some hook could be for, whichever comes first.
    engine = new LazyHookEngine({
      early,
      later: () => {
        collected = collect(input, requireHookModules());
        const { held } = collected;
        return prepared(input, collected, held.length > 0 && hooksApproved(input.configDir, input.projectDir, heldHash(held)));
      },
    });
    // Should collecting fail, the next question about hooks fails the same way, where it can be seen.
    void input.startAfter?.then(() => engine.prepare()).catch(() => undefined);
  }
  const current = (): Collected => {
    engine.prepare();
    return collected as Collected;
  };
  const added = new Set<string>();
  const addSource = (source: HookSource): void => {
    const key = JSON.stringify(source.origin);
    if (added.has(key)) return;
    added.add(key);
    engine.expand();
    const { sources, policy, modules } = current();
    sources.push(source);
    const next = modules[0].collectHooks(sources, { projectDir: input.projectDir, policy });
    for (const problem of next.problems.filter((found) => found.sourceId === next.sources.at(-1)?.id && found.severity !== "notice")) input.report(formatHookProblem(problem));
    engine.setConfig(next);
  };
  return {
    engine,
    get config() {
      return current().config;
    },
    addSource,
  };
}
