/**
 * What the hook policy keeps from running, by origin: `disableAllHooks`, `allowManagedHooksOnly`
 * and plugin-only customization. Apart from collecting, so a start can tell whether any deferred
 * hook could run without loading the collector.
 */
import type { HookOrigin, HookPolicy } from "./types.ts";

export const SCOPE_LABELS: Record<string, string> = {
  managed: "Managed Settings",
  cli: "Command-line Settings",
  local: "Local Settings",
  project: "Project Settings",
  user: "User Settings",
};

/** Why the policy keeps every hook of this origin from running, if it does. */
export function policyBlock(origin: HookOrigin, policy: HookPolicy): string | undefined {
  const managed = origin.kind === "settings" && origin.scope === "managed";
  const disable = policy.disableAllHooks;
  if (disable?.value === true && (disable.scope === "managed" || !managed)) {
    return `disableAllHooks is set in ${SCOPE_LABELS[disable.scope]?.toLowerCase() ?? disable.scope}`;
  }
  if (policy.allowManagedHooksOnly && !managed && !(origin.kind === "plugin" && origin.managedForced)) {
    return "managed settings allow only managed hooks (allowManagedHooksOnly)";
  }
  if (policy.strictPluginOnly && !managed && origin.kind !== "plugin") {
    return "managed settings allow only plugin and managed hooks (strictPluginOnlyCustomization)";
  }
  return undefined;
}

/**
 * Whether the policy keeps every plugin's hooks from running, told without their origins: only
 * `managedForced` of a plugin origin matters to policyBlock (a plugin is never managed, and
 * plugins are allowed under strictPluginOnlyCustomization). `someForced`: whether one of the
 * plugins was forced on by managed settings.
 */
export function blocksEveryPluginHook(policy: HookPolicy, someForced: boolean): boolean {
  // Any scope's disableAllHooks disables a plugin's hooks: only a managed hook outlives a non-managed one.
  if (policy.disableAllHooks?.value === true) return true;
  return policy.allowManagedHooksOnly === true && !someForced;
}
