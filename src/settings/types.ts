/**
 * What loading settings produces. The merged object is typed for the keys clew acts on and keeps
 * every other key as `unknown`; origins and problems say where each value came from and what was
 * skipped, so `clew config` and error messages can point at a file and line.
 */
import type { HooksSettings } from "./schema/hooks.ts";
import type { PermissionsSettings } from "./schema/permissions.ts";
import type { KnownMarketplace } from "./schema/plugins.ts";
import type { KnownSettings } from "./schema/settings.ts";

export type { SettingsFile } from "./schema/settings.ts";
export type { CommandHook, HookGroup, HookHandler, HooksSettings } from "./schema/hooks.ts";
export type { DefaultModeSetting, PermissionsSettings } from "./schema/permissions.ts";
export type { KnownMarketplace, MarketplaceSource } from "./schema/plugins.ts";
export type { SandboxSettings } from "./schema/sandbox.ts";

/** Strongest first: managed, command line, local project, shared project, user, built-in defaults. */
export type SettingsScope = "managed" | "cli" | "local" | "project" | "user" | "default";

/** The file scopes `--setting-sources` chooses among (managed and the command line are always read). */
export type FileScope = "user" | "project" | "local";
export const FILE_SCOPES: readonly FileScope[] = ["user", "project", "local"];

/** Where one value came from: a file, or a command-line flag (`--model`, inline `--settings`). */
export interface SettingsOrigin {
  scope: SettingsScope;
  file?: string;
  flag?: string;
}

export type ProblemSeverity = "error" | "warning" | "notice";

export interface SettingsProblem {
  /** Absolute file path, or the flag (`--settings`, `--model`) for command-line values. */
  file: string;
  line?: number;
  column?: number;
  /** `permissions.allow[2]`, when the problem is about one key. */
  keyPath?: string;
  /** A full sentence that already names the key path. */
  message: string;
  severity: ProblemSeverity;
}

/**
 * Structurally identical to `RuleInput` in permissions/types.ts (the dependency table lets
 * settings/ import only util/, so the shape is repeated; a unit test checks both stay assignable).
 */
export interface SettingsRule {
  text: string;
  kind: "allow" | "ask" | "deny";
  source: { scope: Exclude<SettingsScope, "default">; file?: string; root: string };
}

/** A rule written in a settings file but not in force, and why: for denials, `/permissions` and `clew config --origins`. */
export interface InactiveRule extends SettingsRule {
  /** Why it is not applied, as a clause: "this folder is not trusted". */
  why: string;
  /** What would put it in force: "run `clew trust /repo`". */
  fix: string;
}

export interface ResolvedPermissions extends PermissionsSettings {
  allow: string[];
  ask: string[];
  deny: string[];
  additionalDirectories: string[];
}

/** The merged settings: the typed keys with their defaults filled in, plus every unknown key. */
export type Settings = Omit<KnownSettings, "permissions" | "env" | "hooks" | "enabledPlugins" | "extraKnownMarketplaces"> & {
  permissions: ResolvedPermissions;
  env: Record<string, string>;
  hooks: HooksSettings;
  enabledPlugins: Record<string, boolean>;
  extraKnownMarketplaces: Record<string, KnownMarketplace>;
  cleanupPeriodDays: number;
  includeCoAuthoredBy: boolean;
  autoCompactEnabled: boolean;
  autoMemoryEnabled: boolean;
  [key: string]: unknown;
};

export type Frozen<T> = T extends (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

export interface LoadedSettings {
  settings: Frozen<Settings>;
  /** Leaf key path (`permissions.allow[0]`, `env.FOO`, `model`) → where its value came from. */
  origins: Readonly<Record<string, SettingsOrigin>>;
  /** Every allow/ask/deny rule of every applied layer, each with its own source and `/` anchor. */
  rules: SettingsRule[];
  /** Rules present in a file but not applied (untrusted folder, a file that failed to parse, managed-only rules). */
  inactiveRules: readonly InactiveRule[];
  problems: readonly SettingsProblem[];
  /** Every settings file that was read (present or not), for live reload. */
  files: readonly string[];
  /** Whether the start directory counts as trusted for the shared project file. */
  trusted: boolean;
}
