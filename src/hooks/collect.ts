/**
 * Collects hook blocks from every source (settings files, plugins, skill and agent frontmatter)
 * into one compiled list, in source order. Each bad item is reported once, with its file and key
 * path, and only that item is left out: a broken group or handler never disables another hook.
 * Policy (`disableAllHooks`, `allowManagedHooksOnly`, plugin-only customization, the HTTP URL
 * allowlist) marks hooks inactive rather than removing them, so `/hooks` can say why they are off.
 */
import { compileHandler, type HandlerContext, type HandlerSlot } from "./compile-handler.ts";
import { EVENT_TRAITS, type HookEventName, HOOK_EVENT_NAMES, isFiredEvent, isHookEvent } from "./events.ts";
import { compileMatcher } from "./matcher.ts";
import type { CompiledHook, HookConfig, HookOrigin, MatcherRule, HookPolicy, HookProblem, HookProblemSeverity, HookSource, HookSourceInfo } from "./types.ts";
import { policyBlock, SCOPE_LABELS } from "./policy.ts";
import { urlAllowed } from "./url-allowlist.ts";

export { policyBlock };

export interface CollectOptions {
  /** Where relative script paths resolve and `${CLAUDE_PROJECT_DIR}` points. */
  projectDir: string;
  policy?: HookPolicy;
}


function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function sourceIdOf(origin: HookOrigin): string {
  switch (origin.kind) {
    case "settings":
      return `settings:${origin.scope}:${origin.file ?? origin.flag ?? "inline"}`;
    case "plugin":
      return `plugin:${origin.plugin}:${origin.file}`;
    case "skill":
      return `skill:${origin.name}:${origin.file}`;
    case "agent":
      return `agent:${origin.name}:${origin.file}`;
  }
}

function labelOf(origin: HookOrigin): string {
  switch (origin.kind) {
    case "settings":
      return SCOPE_LABELS[origin.scope] ?? origin.scope;
    case "plugin":
      return `Plugin Hooks (${origin.plugin})`;
    case "skill":
      return `Skill Hooks (${origin.name})`;
    case "agent":
      return `Agent Hooks (${origin.name})`;
  }
}

function fileOf(origin: HookOrigin): string {
  if (origin.kind === "settings") return origin.file ?? origin.flag ?? "--settings";
  return origin.file;
}

/** Sorted-key JSON, so reordering keys in a file does not count as a change. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function hookConfigHash(hooks: unknown): string {
  return new Bun.CryptoHasher("sha256").update(canonical(hooks ?? null)).digest("hex");
}

/** A whole hooks.json (`{description?, hooks: {…}}`) is unwrapped to its event map. */
function unwrap(source: HookSource): { map: unknown; keyPath: string } {
  const keyPath = source.keyPath ?? "hooks";
  const value = source.hooks;
  if (isPlainObject(value) && isPlainObject(value.hooks) && !Object.keys(value).some((key) => isHookEvent(key))) {
    return { map: value.hooks, keyPath: keyPath === "" ? "hooks" : `${keyPath}.hooks` };
  }
  return { map: value, keyPath: keyPath === "" ? "hooks" : keyPath };
}

function suggestEvent(name: string): string {
  const lower = name.toLowerCase();
  const close = HOOK_EVENT_NAMES.find((event) => event.toLowerCase() === lower);
  return close ? ` Did you mean "${close}"?` : "";
}

class SourceCompiler {
  readonly hooks: CompiledHook[] = [];
  private readonly context: HandlerContext;

  constructor(
    private readonly info: HookSourceInfo,
    private readonly source: HookSource,
    private readonly options: CollectOptions,
    private readonly problems: HookProblem[],
  ) {
    this.context = {
      sourceId: info.id,
      origin: info.origin,
      projectDir: options.projectDir,
      report: (severity, keyPath, message) => this.report(severity, keyPath, message),
    };
  }

  report(severity: HookProblemSeverity, keyPath: string | undefined, message: string): void {
    this.problems.push({ file: this.info.file, ...(keyPath !== undefined ? { keyPath } : {}), message, severity, sourceId: this.info.id });
  }

  compile(): void {
    const { map, keyPath } = unwrap(this.source);
    if (map === undefined || map === null) return;
    if (!isPlainObject(map)) {
      this.report("error", keyPath, `${keyPath} must be an object mapping event names to lists of matcher groups (got ${describe(map)}); no hooks from this file are loaded`);
      return;
    }
    for (const [written, groups] of Object.entries(map)) this.event(written, groups, `${keyPath}.${written}`);
  }

  private event(written: string, groups: unknown, keyPath: string): void {
    if (!isHookEvent(written)) {
      if (!this.source.validated) {
        this.report("warning", keyPath, `${keyPath}: unknown hook event "${written}" (event names are case-sensitive); its hooks never run.${suggestEvent(written)}`);
      }
      return;
    }
    // An agent's Stop hooks fire when that agent stops (skills-commands-agents.md §C).
    const event: HookEventName = this.info.origin.kind === "agent" && written === "Stop" ? "SubagentStop" : written;
    if (!Array.isArray(groups)) {
      this.report("error", keyPath, `${keyPath} must be a list of matcher groups like [{"matcher": "Bash", "hooks": [...]}] (got ${describe(groups)}); ignoring ${written} hooks from this file`);
      return;
    }
    const before = this.hooks.length;
    groups.forEach((group, index) => this.group(event, group, `${keyPath}[${index}]`));
    const added = this.hooks.length - before;
    if (added > 0 && !isFiredEvent(event)) {
      this.report("notice", keyPath, `${keyPath}: clew does not fire ${event} hooks yet; ${added === 1 ? "this hook does" : `these ${added} hooks do`} not run`);
      for (const hook of this.hooks.slice(before)) hook.inactive ??= `clew does not fire ${event} yet`;
    }
  }

  private group(event: HookEventName, group: unknown, keyPath: string): void {
    if (!isPlainObject(group)) {
      this.report("error", keyPath, `${keyPath} must be an object {"matcher": …, "hooks": [...]} (got ${describe(group)}); ignoring it`);
      return;
    }
    const traits = EVENT_TRAITS[event];
    let matcher: string | undefined;
    let rule: MatcherRule;
    let groupInactive: string | undefined;
    if (group.matcher !== undefined && typeof group.matcher !== "string") {
      this.report("error", `${keyPath}.matcher`, `${keyPath}.matcher must be a string such as "Bash" or "Edit|Write" (got ${describe(group.matcher)}); this group's hooks never run`);
      matcher = JSON.stringify(group.matcher);
      rule = { kind: "broken" };
      groupInactive = "the matcher is not a string";
    } else if (traits.matcherField === undefined) {
      matcher = group.matcher;
      rule = { kind: "all" };
      if (matcher !== undefined && matcher !== "" && matcher !== "*") {
        this.report("notice", `${keyPath}.matcher`, `${keyPath}.matcher is ignored: ${event} hooks have no matcher and always run`);
      }
    } else {
      matcher = group.matcher;
      const compiled = compileMatcher(matcher, traits.narrowExact === true);
      rule = compiled.rule;
      if (!compiled.ok) {
        this.report("error", `${keyPath}.matcher`, `${keyPath}.matcher ${JSON.stringify(matcher)} is not a valid regular expression (${compiled.error}); this group's hooks never run. Fix the pattern, or list exact names as "Edit|Write"`);
        groupInactive = "the matcher is not a valid regular expression";
      }
    }
    if (!Array.isArray(group.hooks)) {
      const got = group.hooks === undefined ? "it is missing" : `got ${describe(group.hooks)}`;
      this.report("error", `${keyPath}.hooks`, `${keyPath}.hooks must be a list of handlers like [{"type": "command", "command": "…"}] (${got}); ignoring this group`);
      return;
    }
    group.hooks.forEach((handler, index) => {
      const slot: HandlerSlot = {
        event,
        ...(matcher !== undefined ? { matcher } : {}),
        rule,
        ...(groupInactive !== undefined ? { groupInactive } : {}),
        keyPath: `${keyPath}.hooks[${index}]`,
      };
      const hook = compileHandler(handler, slot, this.context);
      if (hook) this.hooks.push(this.applyUrlPolicy(hook));
    });
  }

  private applyUrlPolicy(hook: CompiledHook): CompiledHook {
    const allowed = this.options.policy?.allowedHttpHookUrls;
    if (hook.spec.type !== "http" || allowed === undefined || hook.inactive || urlAllowed(hook.spec.url, allowed)) return hook;
    this.report("warning", `${hook.keyPath}.url`, `${hook.keyPath}.url ${hook.spec.url} is not in allowedHttpHookUrls; this hook does not run. Add the URL to allowedHttpHookUrls or remove the hook`);
    return { ...hook, inactive: "the URL is not in allowedHttpHookUrls" };
  }
}

function sourceInfo(source: HookSource, handlerCount: number): HookSourceInfo {
  const { origin } = source;
  const sharedProject = origin.kind === "settings" ? origin.scope === "project" : origin.sharedProject === true;
  return {
    id: sourceIdOf(origin),
    origin,
    label: labelOf(origin),
    file: fileOf(origin),
    sharedProject,
    // Hashing every plugin's hooks at each start would cost more than the rest of collecting them.
    hash: sharedProject ? hookConfigHash(source.hooks) : "",
    handlerCount,
  };
}

export function collectHooks(sources: readonly HookSource[], options: CollectOptions): HookConfig {
  const policy = options.policy ?? {};
  const problems: HookProblem[] = [];
  const hooks: CompiledHook[] = [];
  const infos: HookSourceInfo[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const draft = sourceInfo(source, 0);
    if (seen.has(draft.id)) {
      problems.push({
        file: draft.file,
        message: `${draft.file} is listed twice as a hooks file for ${draft.label}; its hooks are loaded once. Remove the duplicate entry (a plugin's hooks/hooks.json is always loaded and must not be listed in plugin.json again)`,
        severity: "warning",
        sourceId: draft.id,
      });
      continue;
    }
    seen.add(draft.id);
    const compiler = new SourceCompiler(draft, source, options, problems);
    compiler.compile();
    const blocked = policyBlock(source.origin, policy);
    if (blocked !== undefined && compiler.hooks.length > 0) {
      compiler.report("notice", undefined, `hooks from ${draft.file} do not run: ${blocked}`);
    }
    for (const hook of compiler.hooks) hooks.push(blocked !== undefined && hook.inactive === undefined ? { ...hook, inactive: blocked } : hook);
    infos.push({ ...draft, handlerCount: compiler.hooks.length });
  }
  return { hooks, sources: infos, problems, policy, projectDir: options.projectDir };
}
