/**
 * The session's hook engine as the loop and the session see it, doing as little as it can ahead of
 * use: the configuration may be collected only on first need (a headless start whose hooks
 * nothing fires before the first request collects them once it is on its way), plugins' hooks are
 * compiled in once one of their events matters, and the running code — processes, HTTP, prompts —
 * loads only when a hook some event accepts has to run. A session whose hooks never match pays
 * for none of that.
 */
import type { HookEngine, HookEngineOptions } from "../hooks/engine.ts";
import type { FiredHookEvent } from "../hooks/events.ts";
import type { HookEventFields } from "../hooks/inputs.ts";
import type { AsyncHookResult, FireOptions, HookOutcomes } from "../hooks/outcomes.ts";
import type { HookConfig, MatcherRule } from "../hooks/types.ts";

/** Tool events name the tool a matcher filters on (hooks.md §3). */
const TOOL_EVENTS = new Set<string>(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"]);

/** What the engine runs on once the configuration is collected. */
export interface PreparedHooks {
  options: HookEngineOptions;
  accepts: (rule: MatcherRule, value: string | undefined) => boolean;
  /** Sources left out of `options.config` until one of their events matters, or all are listed. */
  deferred?: { events: ReadonlySet<string>; compile: () => HookConfig };
}

/**
 * The configuration now, or — with `early` — on first need: `early` names every event a hook of
 * the uncollected configuration could be for, so a question about any other is answered without
 * collecting.
 */
export type HookPreparation = { now: PreparedHooks } | { later: () => PreparedHooks; early: ReadonlySet<string> };

export class LazyHookEngine implements HookEngine {
  private engine: HookEngine | undefined;
  private loading: Promise<HookEngine> | undefined;
  private state: PreparedHooks | undefined;
  private readonly later: (() => PreparedHooks) | undefined;
  private readonly early: ReadonlySet<string> | undefined;

  constructor(preparation: HookPreparation) {
    if ("now" in preparation) this.state = preparation.now;
    else {
      this.later = preparation.later;
      this.early = preparation.early;
    }
  }

  /** Collects the configuration if that has not happened yet (its problems are reported then). */
  prepare(): PreparedHooks {
    this.state ??= (this.later as () => PreparedHooks)();
    return this.state;
  }

  get prepared(): boolean {
    return this.state !== undefined;
  }

  /** Every hook, the deferred ones compiled in (what `/hooks` lists). */
  get config(): HookConfig {
    this.expand();
    return this.current();
  }

  private current(): HookConfig {
    return this.engine?.config ?? this.prepare().options.config;
  }

  /** No hook of the uncollected configuration can be for `event`. */
  private surelyNone(event: string): boolean {
    return this.state === undefined && this.early?.has(event) === false;
  }

  expand(event?: string): void {
    const state = this.prepare();
    const deferred = state.deferred;
    if (!deferred || (event !== undefined && !deferred.events.has(event))) return;
    state.deferred = undefined;
    this.setConfig(deferred.compile());
  }

  private load(): Promise<HookEngine> {
    this.loading ??= import("../hooks/engine.ts").then(({ createHookEngine }) => (this.engine = createHookEngine(this.prepare().options)));
    return this.loading;
  }

  hasHooks(event: FiredHookEvent): boolean {
    if (this.surelyNone(event)) return false;
    this.expand(event);
    return this.current().hooks.some((hook) => hook.event === event && hook.inactive === undefined);
  }

  hasHooksFor(event: FiredHookEvent, toolName: string): boolean {
    if (!TOOL_EVENTS.has(event)) return this.hasHooks(event);
    if (this.surelyNone(event)) return false;
    this.expand(event);
    const { accepts } = this.prepare();
    return this.current().hooks.some((hook) => hook.event === event && hook.inactive === undefined && accepts(hook.rule, toolName));
  }

  async fire<E extends FiredHookEvent>(event: E, fields: HookEventFields[E], fireOptions?: FireOptions): Promise<HookOutcomes[E]> {
    this.expand(event);
    return (await this.load()).fire(event, fields, fireOptions);
  }

  setConfig(config: HookConfig): void {
    const state = this.prepare();
    state.options = { ...state.options, config };
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
    // A session that ended before its hooks were needed still reports their problems.
    this.prepare();
    return this.engine?.close() ?? Promise.resolve();
  }
}
