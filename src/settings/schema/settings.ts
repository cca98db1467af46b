/**
 * One settings file. Only the keys clew acts on are typed; every other key passes through
 * untouched, because shared files written for Claude Code carry ~160 keys and must not break.
 */
import { z } from "zod";
import { hooksSchema } from "./hooks.ts";
import { permissionsSchema } from "./permissions.ts";
import { enabledPluginsSchema, extraKnownMarketplacesSchema } from "./plugins.ts";

export const statusLineSchema = z.looseObject({
  type: z.literal("command"),
  command: z.string(),
  padding: z.number().int().optional(),
  refreshInterval: z.number().int().min(1).optional(),
  hideVimModeIndicator: z.boolean().optional(),
});

export const attributionSchema = z.looseObject({
  commit: z.string().optional(),
  pr: z.string().optional(),
  sessionUrl: z.boolean().optional(),
});

export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh"] as const;

const settingsShape = {
  model: z.string().optional(),
  permissions: permissionsSchema.optional(),
  env: z.record(z.string(), z.string()).optional(),
  hooks: hooksSchema.optional(),
  enabledPlugins: enabledPluginsSchema.optional(),
  extraKnownMarketplaces: extraKnownMarketplacesSchema.optional(),
  cleanupPeriodDays: z.number().int().min(1).optional(),
  verbose: z.boolean().optional(),
  apiKeyHelper: z.string().optional(),
  statusLine: statusLineSchema.optional(),
  autoCompactEnabled: z.boolean().optional(),
  autoCompactWindow: z.number().int().min(100_000).max(1_000_000).optional(),
  /** clew: compact when a request would use this share of the window (default 80). */
  autoCompactPercent: z.number().int().min(1).max(100).optional(),
  includeCoAuthoredBy: z.boolean().optional(),
  attribution: attributionSchema.optional(),
  availableModels: z.array(z.string()).optional(),
  fallbackModel: z.array(z.string()).optional(),
  alwaysThinkingEnabled: z.boolean().optional(),
  effortLevel: z.enum(EFFORT_LEVELS).optional(),
  language: z.string().optional(),
  outputStyle: z.string().optional(),
  claudeMdExcludes: z.array(z.string()).optional(),
  autoMemoryEnabled: z.boolean().optional(),
};

export const settingsFileSchema = z.looseObject(settingsShape);

export type SettingsFile = z.infer<typeof settingsFileSchema>;
/** The typed keys alone, without the index signature for unknown keys (which `Omit` would flatten). */
export type KnownSettings = z.infer<z.ZodObject<typeof settingsShape>>;
export type StatusLineSettings = z.infer<typeof statusLineSchema>;
export type AttributionSettings = z.infer<typeof attributionSchema>;
