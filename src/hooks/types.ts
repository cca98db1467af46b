/**
 * The compiled hook configuration: where each hook came from, what it runs, and what is wrong with
 * it. Plain data, so `/hooks`, `clew doctor`, the engine and the trust prompt all read one thing.
 */
import type { SettingsScope } from "../settings/types.ts";
import type { FiredHookEvent, HandlerType, HookEventName } from "./events.ts";

export type { FiredHookEvent, HandlerType, HookEventName } from "./events.ts";

/** Where a block of hooks was defined. */
export type HookOrigin =
  | {
      kind: "settings";
      scope: Exclude<SettingsScope, "default">;
      /** Absolute path; absent for inline `--settings` JSON. */
      file?: string;
      flag?: string;
    }
  | {
      kind: "plugin";
      /** `name@marketplace` or the plugin's name. */
      plugin: string;
      root: string;
      dataDir: string;
      /** hooks/hooks.json, or plugin.json for inline manifest hooks. */
      file: string;
      /** userConfig values: exported as CLAUDE_PLUGIN_OPTION_<KEY>, and `${user_config.KEY}` in exec form. */
      options?: Readonly<Record<string, string>>;
      /** Force-enabled by managed `enabledPlugins`: still runs under `allowManagedHooksOnly`. */
      managedForced?: boolean;
      sharedProject?: boolean;
    }
  | { kind: "skill"; name: string; file: string; sharedProject?: boolean }
  | {
      kind: "agent";
      /** The agent's `name`: its hooks run only while an agent of this type runs (input `agent_type`). */
      name: string;
      file: string;
      sharedProject?: boolean;
    };

/** One block of hooks handed to `collectHooks`. */
export interface HookSource {
  origin: HookOrigin;
  /**
   * The event map as read (`{ PreToolUse: [ { matcher, hooks: [...] } ] }`), or a whole hooks.json
   * (`{ description?, hooks: {...} }`, unwrapped here). Validated here; anything may arrive.
   */
  hooks: unknown;
  /** Key path of `hooks` inside its file, for messages. Default `hooks`; `""` for a whole hooks.json. */
  keyPath?: string;
  /** The settings loader already reported structural problems and unknown events for this block. */
  validated?: boolean;
}

export interface HookPolicy {
  /** The merged `disableAllHooks` and the scope that set it (only managed can disable managed hooks). */
  disableAllHooks?: { value: boolean; scope: SettingsScope };
  /** Managed `allowManagedHooksOnly`. */
  allowManagedHooksOnly?: boolean;
  /** Managed `strictPluginOnlyCustomization` covers hooks: only plugin and managed hooks run. */
  strictPluginOnly?: boolean;
  /** `allowedHttpHookUrls` (merged); undefined = any URL. `*` matches any run of characters. */
  allowedHttpHookUrls?: readonly string[];
  /** `httpHookAllowedEnvVars` (merged); undefined = no extra restriction. */
  httpHookAllowedEnvVars?: readonly string[];
}

export type HookProblemSeverity = "error" | "warning" | "notice";

export interface HookProblem {
  /** The file (or flag) the hook was defined in. */
  file: string;
  /** `hooks.PreToolUse[1].matcher`; absent for a problem with the whole block. */
  keyPath?: string;
  /** A full sentence that names the key path and says what to do. */
  message: string;
  severity: HookProblemSeverity;
  sourceId: string;
}

export interface HookSourceInfo {
  /** Stable for a given origin: `settings:project:/repo/.claude/settings.json`, `plugin:fmt@acme`, … */
  id: string;
  origin: HookOrigin;
  /** `/hooks` label: User Settings, Project Settings, Local Settings, Managed Settings, Plugin Hooks, … */
  label: string;
  /** The file, or the flag for inline settings. */
  file: string;
  /** From the shared (committed) project settings, or marked shared by the caller: run only when trusted. */
  sharedProject: boolean;
  /**
   * sha256 of this source's hook configuration (canonical JSON): ask again when it changes. Only
   * shared project sources are ever asked about, so only they carry it ("" for the others).
   */
  hash: string;
  handlerCount: number;
}

export interface CommandSpec {
  type: "command";
  command: string;
  /** Present = exec form: `command` resolved on PATH and spawned without a shell. */
  args?: readonly string[];
  shell: "sh" | "bash" | "powershell";
  async: boolean;
  asyncRewake: boolean;
  rewakeMessage?: string;
  rewakeSummary?: string;
}

export interface HttpSpec {
  type: "http";
  url: string;
  headers: Readonly<Record<string, string>>;
  allowedEnvVars: readonly string[];
}

export interface PromptSpec {
  type: "prompt";
  prompt: string;
  model?: string;
  continueOnBlock: boolean;
}

/** `agent` and `mcp_tool`: listed (with a notice), never run yet. */
export interface UnsupportedSpec {
  type: "agent" | "mcp_tool";
  summary: string;
}

export type HandlerSpec = CommandSpec | HttpSpec | PromptSpec | UnsupportedSpec;

export type MatcherRule =
  | { kind: "all" }
  | { kind: "names"; names: readonly string[] }
  | { kind: "regex"; regex: RegExp }
  /** A pattern that does not compile: the group never runs (reported as a problem). */
  | { kind: "broken" };

export interface CompiledHook {
  /** `<source id>#<key path>`: stable across recompiles, so `once` and approvals survive reloads. */
  id: string;
  event: HookEventName;
  /** The matcher as written. */
  matcher?: string;
  rule: MatcherRule;
  /** `hooks.PreToolUse[0].hooks[1]` (the event name as written, before Stop → SubagentStop). */
  keyPath: string;
  sourceId: string;
  spec: HandlerSpec;
  if?: string;
  timeoutMs: number;
  statusMessage?: string;
  /** `once: true` in skill frontmatter: runs once per engine, then is skipped. */
  once: boolean;
  /** Why this hook never runs (broken matcher, wrong event, unsupported type, policy); undefined = it can run. */
  inactive?: string;
}

export interface HookConfig {
  hooks: readonly CompiledHook[];
  sources: readonly HookSourceInfo[];
  problems: readonly HookProblem[];
  policy: HookPolicy;
  projectDir: string;
}

/** Run records: one per handler execution, for the transcript, `/hooks` and stream-json. */
export type HookRunOutcome = "success" | "blocked" | "error" | "timeout" | "cancelled";

export interface HookStartInfo {
  runId: string;
  hookId: string;
  event: HookEventName;
  /** `PreToolUse:Bash`, `SessionStart:startup`, or the event alone when it has no matcher field. */
  hookName: string;
  matcher?: string;
  sourceId: string;
  sourceLabel: string;
  file: string;
  type: HandlerType;
  /** The command as run (placeholders resolved), the URL, or the prompt's first line. */
  command: string;
  async: boolean;
  statusMessage?: string;
}

export interface HookRunRecord extends HookStartInfo {
  durationMs: number;
  /** The process exit code (command), 0/1 for http and prompt; absent when it never finished. */
  exitCode?: number;
  /** At most RECORD_OUTPUT_CHARS each (head and tail kept). */
  stdout: string;
  stderr: string;
  outcome: HookRunOutcome;
  /** What the engine made of it: the error notice, the block reason, the output problem. */
  message?: string;
}
