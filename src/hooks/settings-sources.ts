/**
 * Adapts loaded settings to hook sources and policy. The settings loader has already merged the
 * layers (identical handlers kept once, in the strongest file), validated their structure and
 * recorded which file each matcher group came from (`origins["hooks.PreToolUse[0]"]`); here the
 * merged groups are split back into one source per file, so every hook keeps its file and scope.
 *
 * Key paths in messages count a file's groups as they survived merging: they match the file
 * unless a whole group was dropped as a duplicate of a stronger file's.
 */
import type { LoadedSettings, SettingsOrigin } from "../settings/types.ts";
import { isHookEvent } from "./events.ts";
import type { HookPolicy, HookSource } from "./types.ts";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function originKey(origin: SettingsOrigin): string {
  return `${origin.scope}\u0000${origin.file ?? ""}\u0000${origin.flag ?? ""}`;
}

export function hookSourcesFromSettings(loaded: Pick<LoadedSettings, "settings" | "origins">): HookSource[] {
  const hooks: unknown = loaded.settings.hooks;
  if (!isPlainObject(hooks)) return [];
  const byOrigin = new Map<string, { origin: SettingsOrigin; map: Record<string, unknown[]> }>();
  for (const [event, groups] of Object.entries(hooks)) {
    if (!isHookEvent(event) || !Array.isArray(groups)) continue;
    groups.forEach((group, index) => {
      const origin = loaded.origins[`hooks.${event}[${index}]`];
      if (!origin || origin.scope === "default") return;
      const key = originKey(origin);
      const entry = byOrigin.get(key) ?? { origin, map: {} };
      byOrigin.set(key, entry);
      (entry.map[event] ??= []).push(group);
    });
  }
  return [...byOrigin.values()].map(({ origin, map }) => ({
    origin: {
      kind: "settings",
      scope: origin.scope as Exclude<SettingsOrigin["scope"], "default">,
      ...(origin.file !== undefined ? { file: origin.file } : {}),
      ...(origin.flag !== undefined ? { flag: origin.flag } : {}),
    },
    hooks: map,
    keyPath: "hooks",
    validated: true,
  }));
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

export function hookPolicyFromSettings(loaded: Pick<LoadedSettings, "settings" | "origins">): HookPolicy {
  const settings = loaded.settings;
  const policy: HookPolicy = {};
  const disable = settings.disableAllHooks;
  const disableOrigin = loaded.origins.disableAllHooks;
  if (typeof disable === "boolean" && disableOrigin) policy.disableAllHooks = { value: disable, scope: disableOrigin.scope };
  if (settings.allowManagedHooksOnly === true) policy.allowManagedHooksOnly = true;
  const strict = settings.strictPluginOnlyCustomization;
  if (strict === true || (Array.isArray(strict) && strict.includes("hooks"))) policy.strictPluginOnly = true;
  const urls = stringList(settings.allowedHttpHookUrls);
  if (urls) policy.allowedHttpHookUrls = urls;
  const envVars = stringList(settings.httpHookAllowedEnvVars);
  if (envVars) policy.httpHookAllowedEnvVars = envVars;
  return policy;
}
