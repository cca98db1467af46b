/**
 * The hooks engine: for one event, selects the hooks that apply (event, matcher, `if`, agent scope,
 * trust, `once`), de-duplicates identical ones, runs them in parallel to completion, and combines
 * their results into the event's typed outcome. Async hooks are started and delivered later.
 * The engine decides nothing itself: permissions, context and stopping stay with the caller.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { combine } from "./combine.ts";
import { readEnvFile } from "./env-file.ts";
import { EVENT_TRAITS, type FiredHookEvent, SESSION_END_BUDGET_CAP_MS, SESSION_END_BUDGET_MS } from "./events.ts";
import { commandText, type RunContext, type StartedHandler, startHandler } from "./execute.ts";
import { hookInput, type HookCommonInput, type HookEventFields, inputField, matchValueOf } from "./inputs.ts";
import { matcherAccepts } from "./matcher.ts";
import type { AsyncHookResult, FireOptions, HookOutcomes, HookRunner } from "./outcomes.ts";
import type { HandlerResult } from "./result.ts";
import type { PromptPort } from "./run-prompt.ts";
import { textCap } from "./text-cap.ts";
import type { CompiledHook, HookConfig, HookRunRecord, HookSourceInfo, HookStartInfo } from "./types.ts";

export type RuleMatcher = (rule: string, toolName: string, toolInput: Record<string, unknown>) => boolean | Promise<boolean>;

export interface HookEngineOptions {
  config: HookConfig;
  /** The environment hook processes inherit (settings/paths.ts `childEnv`). */
  env: Readonly<Record<string, string>>;
  /** The common input fields, read at every firing (session id, transcript, cwd, mode, prompt id). */
  common: () => HookCommonInput;
  /** Permission-rule matching for `if` (src/permissions). A throw counts as a match: `if` fails open. */
  matchesRule: RuleMatcher;
  /** The small-model call behind prompt hooks; without it they report an error. */
  prompt?: PromptPort;
  /** Whether a hook may run now (workspace trust, approved source hashes). Default: every active hook. */
  allow?: (hook: CompiledHook, source: HookSourceInfo) => boolean;
  /** CLAUDE_ENV_FILE for SessionStart hooks; read back into `SessionStartOutcome.env`. */
  envFile?: string;
  /** Saves an over-long hook text (> 10,000 characters) in full and returns its path. */
  spill?: (text: string) => string | undefined;
  /** `CLAUDE_EFFORT` for hook processes. */
  effort?: string;
  /** CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS, when set. */
  sessionEndBudgetMs?: number;
  onHookStarted?: (info: HookStartInfo) => void;
  onHookFinished?: (record: HookRunRecord) => void;
  /** An async hook finished (also queued for `takeAsyncResults`); `rewake` means wake the model. */
  onAsyncResult?: (result: AsyncHookResult) => void;
}

export interface HookEngine extends HookRunner {
  readonly config: HookConfig;
  /** Replaces the configuration (settings reload, a skill's hooks registered); `once` state is kept. */
  setConfig(config: HookConfig): void;
  /** Finished async hooks since the last call, in completion order; deliver to the model next turn. */
  takeAsyncResults(): AsyncHookResult[];
  pendingAsync(): number;
  /** Resolves when every async hook started so far has finished (or the signal aborts). */
  waitForAsync(signal?: AbortSignal): Promise<void>;
  /** Kills every running async hook (headless teardown). */
  close(): Promise<void>;
}

function dedupKey(hook: CompiledHook, source: HookSourceInfo, projectDir: string): string {
  // Identical handlers from settings files run once; a plugin's or skill's copy stays separate (hooks.md §1).
  const owner = source.origin.kind === "settings" ? "settings" : source.id;
  const spec = hook.spec;
  const shape = spec.type === "command" ? `${spec.shell}\u0000${spec.async}\u0000${spec.args ? "exec" : "shell"}` : spec.type === "prompt" ? (spec.model ?? "") : "";
  return [owner, spec.type, commandText(hook, projectDir, source), shape, spec.type === "prompt" ? spec.prompt : ""].join("\u0000");
}

function sessionEndBudget(config: HookConfig, override: number | undefined): number {
  if (override !== undefined) return override;
  const sources = new Map(config.sources.map((source) => [source.id, source]));
  const fromSettings = config.hooks
    .filter((hook) => hook.event === "SessionEnd" && sources.get(hook.sourceId)?.origin.kind === "settings")
    .map((hook) => hook.timeoutMs);
  return Math.min(Math.max(SESSION_END_BUDGET_MS, ...fromSettings), SESSION_END_BUDGET_CAP_MS);
}

export function createHookEngine(options: HookEngineOptions): HookEngine {
  let config = options.config;
  let sources = new Map(config.sources.map((source) => [source.id, source]));
  const ranOnce = new Set<string>();
  let handlersStarted = 0;
  const pending = new Map<string, StartedHandler>();
  const finished: AsyncHookResult[] = [];
  const cap = textCap(options.spill);

  async function select(event: FiredHookEvent, input: object): Promise<{ hook: CompiledHook; source: HookSourceInfo }[]> {
    const traits = EVENT_TRAITS[event];
    const value = traits.matcherField === undefined ? undefined : (matchValueOf(input, traits.matcherField) ?? "");
    const chosen: { hook: CompiledHook; source: HookSourceInfo }[] = [];
    const seen = new Set<string>();
    for (const hook of config.hooks) {
      const source = sources.get(hook.sourceId);
      if (hook.event !== event || hook.inactive !== undefined || !source) continue;
      if (!matcherAccepts(hook.rule, value)) continue;
      if (source.origin.kind === "agent" && inputField(input, "agent_type") !== source.origin.name) continue;
      if (hook.once && ranOnce.has(hook.id)) continue;
      if (options.allow && !options.allow(hook, source)) continue;
      if (hook.if !== undefined && !(await ifMatches(hook.if, input))) continue;
      const key = dedupKey(hook, source, config.projectDir);
      if (seen.has(key)) continue;
      seen.add(key);
      chosen.push({ hook, source });
    }
    return chosen;
  }

  async function ifMatches(rule: string, input: object): Promise<boolean> {
    const name = inputField(input, "tool_name");
    const toolInput = inputField(input, "tool_input");
    const toolName = typeof name === "string" ? name : "";
    try {
      return await options.matchesRule(rule, toolName, isRecord(toolInput) ? toolInput : {});
    } catch {
      return true;
    }
  }

  function contextFor(event: FiredHookEvent, hookName: string, source: HookSourceInfo, hook: CompiledHook, inputJson: string, signal: AbortSignal | undefined, budgetMs?: number): RunContext {
    const envFile = EVENT_TRAITS[event].envFile ? options.envFile : undefined;
    return {
      event,
      inputJson,
      hookName,
      source,
      projectDir: config.projectDir,
      baseEnv: options.env,
      ...(envFile !== undefined ? { envFile } : {}),
      ...(options.effort !== undefined ? { effort: options.effort } : {}),
      ...(options.prompt ? { prompt: options.prompt } : {}),
      policy: config.policy,
      timeoutMs: budgetMs === undefined ? hook.timeoutMs : Math.min(hook.timeoutMs, budgetMs),
      signal,
      ...(options.onHookStarted ? { onStarted: options.onHookStarted } : {}),
      ...(options.onHookFinished ? { onFinished: options.onHookFinished } : {}),
    };
  }

  function startAsync(event: FiredHookEvent, started: StartedHandler, hook: CompiledHook): void {
    pending.set(started.info.runId, started);
    void started.done.then(({ result, record, stdout, stderr }) => {
      pending.delete(started.info.runId);
      const delivered = asyncResult(event, started.info, result, cap);
      if (hook.spec.type === "command" && hook.spec.asyncRewake && record.exitCode === 2) {
        // stderr, or stdout when stderr is empty (hooks.md §4.1).
        const text = stderr.trim() || stdout.trim();
        const prefix = hook.spec.rewakeMessage ? `${hook.spec.rewakeMessage}\n` : "";
        delivered.rewake = { message: cap(`${prefix}${text}`.trim()), ...(hook.spec.rewakeSummary ? { summary: hook.spec.rewakeSummary } : {}) };
      }
      finished.push(delivered);
      options.onAsyncResult?.(delivered);
    });
  }

  async function fire<E extends FiredHookEvent>(event: E, fields: HookEventFields[E], fireOptions: FireOptions = {}): Promise<HookOutcomes[E]> {
    const input = hookInput(event, { ...options.common(), ...fireOptions.common }, fields);
    const inputJson = JSON.stringify(input);
    const chosen = await select(event, input);
    const traits = EVENT_TRAITS[event];
    const value = traits.matcherField === undefined ? undefined : matchValueOf(input, traits.matcherField);
    const hookName = value ? `${event}:${value}` : event;
    const budget = event === "SessionEnd" ? sessionEndBudget(config, options.sessionEndBudgetMs) : undefined;
    if (EVENT_TRAITS[event].envFile && options.envFile && chosen.length > 0) mkdirSync(dirname(options.envFile), { recursive: true });
    const sync: Promise<HandlerResult>[] = [];
    let asyncStarted = 0;
    for (const { hook, source } of chosen) {
      handlersStarted++;
      if (hook.once) ranOnce.add(hook.id);
      // An async SessionEnd hook would outlive the session; it runs synchronously within the budget.
      const background = hook.spec.type === "command" && hook.spec.async && event !== "SessionEnd";
      const started = startHandler(hook, contextFor(event, hookName, source, hook, inputJson, background ? undefined : fireOptions.signal, budget));
      if (background) {
        startAsync(event, started, hook);
        asyncStarted++;
      } else sync.push(started.done.then(({ result }) => result));
    }
    // Promise.all keeps configuration order whatever order the hooks finish in.
    const results = await Promise.all(sync);
    const outcome = { ...combine(event, results, cap), asyncStarted } as HookOutcomes[E];
    if (event === "SessionStart" || event === "Setup") {
      const env = options.envFile ? readEnvFile(options.envFile, options.env) : { vars: {}, problems: [] };
      Object.assign(outcome, { env: env.vars, envProblems: env.problems });
    }
    return outcome;
  }

  return {
    get config() {
      return config;
    },
    setConfig(next) {
      config = next;
      sources = new Map(next.sources.map((source) => [source.id, source]));
    },
    fire,
    started: () => handlersStarted,
    hasHooks(event) {
      return config.hooks.some((hook) => hook.event === event && hook.inactive === undefined);
    },
    takeAsyncResults() {
      return finished.splice(0, finished.length);
    },
    pendingAsync() {
      return pending.size;
    },
    async waitForAsync(signal) {
      while (pending.size > 0 && !signal?.aborted) {
        const aborted = new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
        await Promise.race([Promise.all([...pending.values()].map((started) => started.done)), aborted]);
      }
    },
    async close() {
      await Promise.all([...pending.values()].map((started) => started.kill()));
    },
  };
}

function asyncResult(event: FiredHookEvent, info: HookStartInfo, result: HandlerResult, cap: (text: string) => string): AsyncHookResult {
  const context = result.output?.specific?.additionalContext;
  const message = result.output?.systemMessage;
  const delivered: AsyncHookResult = {
    runId: info.runId,
    hookId: info.hookId,
    event,
    hookName: info.hookName,
    additionalContext: context ? [cap(context)] : [],
    systemMessages: message ? [cap(message)] : [],
    errors: result.error ? [result.error] : [],
  };
  return delivered;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
