/**
 * One settings file. Only the keys clew acts on are typed; every other key passes through
 * untouched, because shared files written for Claude Code carry ~160 keys and must not break.
 *
 * The file is checked key by key (`settingsKeySchema`), each key's schema built the first time a
 * file has that key: the same result as one loose object schema, without building the hooks and
 * marketplace schemas for a run whose settings never mention them.
 */
import type { z } from "zod";
import { hooksSchema } from "./hooks.ts";
import { loadZod, type ZodApi } from "../../util/lazy-schema.ts";
import { permissionsSchema } from "./permissions.ts";
import { enabledPluginsSchema, extraKnownMarketplacesSchema } from "./plugins.ts";
import { sandboxSchema } from "./sandbox.ts";

export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh"] as const;
/** `skillOverrides` values: how one of the user's skills or commands is offered (extensions/overrides.ts). */
export const SKILL_OVERRIDE_MODES = ["on", "name-only", "user-invocable-only", "off"] as const;
export type SkillOverrideMode = (typeof SKILL_OVERRIDE_MODES)[number];

const statusLine = (z: ZodApi) =>
  z.looseObject({
    type: z.literal("command"),
    command: z.string(),
    padding: z.number().int().optional(),
    refreshInterval: z.number().int().min(1).optional(),
    hideVimModeIndicator: z.boolean().optional(),
  });

const attribution = (z: ZodApi) =>
  z.looseObject({
    commit: z.string().optional(),
    pr: z.string().optional(),
    sessionUrl: z.boolean().optional(),
  });

/** One builder per typed key, in the order a person reads the file's documentation. */
const shape = {
  model: (z: ZodApi) => z.string().optional(),
  permissions: () => permissionsSchema().optional(),
  env: (z: ZodApi) => z.record(z.string(), z.string()).optional(),
  hooks: () => hooksSchema().optional(),
  enabledPlugins: () => enabledPluginsSchema().optional(),
  extraKnownMarketplaces: () => extraKnownMarketplacesSchema().optional(),
  cleanupPeriodDays: (z: ZodApi) => z.number().int().min(1).optional(),
  verbose: (z: ZodApi) => z.boolean().optional(),
  apiKeyHelper: (z: ZodApi) => z.string().optional(),
  statusLine: (z: ZodApi) => statusLine(z).optional(),
  autoCompactEnabled: (z: ZodApi) => z.boolean().optional(),
  autoCompactWindow: (z: ZodApi) => z.number().int().min(100_000).max(1_000_000).optional(),
  /** clew: compact when a request would use this share of the window (default 80). */
  autoCompactPercent: (z: ZodApi) => z.number().int().min(1).max(100).optional(),
  includeCoAuthoredBy: (z: ZodApi) => z.boolean().optional(),
  attribution: (z: ZodApi) => attribution(z).optional(),
  availableModels: (z: ZodApi) => z.array(z.string()).optional(),
  fallbackModel: (z: ZodApi) => z.array(z.string()).optional(),
  alwaysThinkingEnabled: (z: ZodApi) => z.boolean().optional(),
  effortLevel: (z: ZodApi) => z.enum(EFFORT_LEVELS).optional(),
  language: (z: ZodApi) => z.string().optional(),
  outputStyle: (z: ZodApi) => z.string().optional(),
  claudeMdExcludes: (z: ZodApi) => z.array(z.string()).optional(),
  autoMemoryEnabled: (z: ZodApi) => z.boolean().optional(),
  /** Self-update: background checks on or off, the channel, and a version never to leave. */
  autoUpdates: (z: ZodApi) => z.boolean().optional(),
  autoUpdatesChannel: (z: ZodApi) => z.enum(["latest", "stable"]).optional(),
  pinnedVersion: (z: ZodApi) => z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "must be a version such as 1.2.3").optional(),
  /** Checkpoints before each prompt (on unless false), and how many a session keeps (clew; default 100). */
  fileCheckpointingEnabled: (z: ZodApi) => z.boolean().optional(),
  checkpointsPerSession: (z: ZodApi) => z.number().int().min(1).max(10_000).optional(),
  /** The OS sandbox for Bash (spec §7): bubblewrap on Linux, Seatbelt on macOS. */
  sandbox: () => sandboxSchema().optional(),
  /** `--agent` as a setting: the main conversation runs as this agent. */
  agent: (z: ZodApi) => z.string().optional(),
  /** Per skill or command name: "on", "name-only", "user-invocable-only" or "off" (extensions/overrides.ts). */
  /** The `@` file picker leaves out what git ignores (default true). */
  respectGitignore: (z: ZodApi) => z.boolean().optional(),
  skillOverrides: (z: ZodApi) => z.record(z.string(), z.enum(SKILL_OVERRIDE_MODES)).optional(),
};

type SettingsShape = { [Key in keyof typeof shape]: ReturnType<(typeof shape)[Key]> };

/** The typed keys in schema order: a file is checked in this order, as one object schema would. */
export const SETTINGS_KEYS = Object.keys(shape) as (keyof typeof shape)[];

const built = new Map<string, z.ZodType>();

/** The schema of one typed key, or undefined for a key clew passes through unchecked. */
export function settingsKeySchema(key: string): z.ZodType | undefined {
  if (!Object.hasOwn(shape, key)) return undefined;
  let schema = built.get(key);
  if (schema === undefined) {
    schema = shape[key as keyof typeof shape](loadZod());
    built.set(key, schema);
  }
  return schema;
}

export type SettingsFile = z.infer<z.ZodObject<SettingsShape, z.core.$loose>>;
/** The typed keys alone, without the index signature for unknown keys (which `Omit` would flatten). */
export type KnownSettings = z.infer<z.ZodObject<SettingsShape>>;
export type StatusLineSettings = z.infer<ReturnType<typeof statusLine>>;
export type { SandboxSettings } from "./sandbox.ts";
export type AttributionSettings = z.infer<ReturnType<typeof attribution>>;
