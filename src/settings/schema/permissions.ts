/**
 * The `permissions` section. Rules stay strings here: their grammar belongs to permissions/, and
 * a rule this module can't judge must still reach the engine (a deny rule is never dropped for
 * looking odd).
 */
import type { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.ts";

/** Every value Claude Code accepts for `defaultMode` (`manual` is an alias of `default`). */
export const DEFAULT_MODE_VALUES = ["default", "manual", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"] as const;

export type DefaultModeSetting = (typeof DEFAULT_MODE_VALUES)[number];

export const permissionsSchema = lazySchema((z) =>
  z.looseObject({
    allow: z.array(z.string()).optional(),
    ask: z.array(z.string()).optional(),
    deny: z.array(z.string()).optional(),
    additionalDirectories: z.array(z.string()).optional(),
    defaultMode: z.enum(DEFAULT_MODE_VALUES).optional(),
    disableBypassPermissionsMode: z.literal("disable").optional(),
    disableAutoMode: z.literal("disable").optional(),
  }),
);

export type PermissionsSettings = z.infer<ReturnType<typeof permissionsSchema>>;
