/**
 * Built-in values, the weakest layer: only keys whose default is a plain value (spec §3). Keys
 * whose "unset" means something different from any value (`alwaysThinkingEnabled`, `model`)
 * have no default here.
 */
export function defaultSettings(): Record<string, unknown> {
  return {
    permissions: { allow: [], ask: [], deny: [], additionalDirectories: [] },
    env: {},
    hooks: {},
    enabledPlugins: {},
    extraKnownMarketplaces: {},
    cleanupPeriodDays: 30,
    includeCoAuthoredBy: true,
    autoCompactEnabled: true,
    autoMemoryEnabled: true,
  };
}
