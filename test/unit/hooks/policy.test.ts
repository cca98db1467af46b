// blocksEveryPluginHook tells a start whether any of its plugins' hooks could run without reading
// their origins; it must agree with policyBlock, which the engine and /hooks ask of each origin,
// for every policy: a plugin hook the policy lets run must never be skipped as "blocked".
import { describe, expect, test } from "bun:test";
import { blocksEveryPluginHook, policyBlock } from "../../../src/hooks/policy.ts";
import type { HookOrigin, HookPolicy } from "../../../src/hooks/types.ts";
import type { SettingsScope } from "../../../src/settings/types.ts";

const plugin = (managedForced: boolean): HookOrigin => ({ kind: "plugin", plugin: "p@m", root: "/p", dataDir: "/d", file: "/p/hooks/hooks.json", ...(managedForced ? { managedForced } : {}) });

const scopes: SettingsScope[] = ["managed", "cli", "local", "project", "user"];
const policies: Array<{ name: string; policy: HookPolicy }> = [{ name: "no policy", policy: {} }];
for (const scope of scopes) {
  for (const value of [true, false]) policies.push({ name: `disableAllHooks ${value} in ${scope}`, policy: { disableAllHooks: { value, scope } } });
}
const extra = policies.slice();
for (const { name, policy } of extra) {
  policies.push({ name: `${name} + allowManagedHooksOnly`, policy: { ...policy, allowManagedHooksOnly: true } });
  policies.push({ name: `${name} + strictPluginOnlyCustomization`, policy: { ...policy, strictPluginOnly: true } });
  policies.push({ name: `${name} + both`, policy: { ...policy, allowManagedHooksOnly: true, strictPluginOnly: true } });
}

describe("blocksEveryPluginHook", () => {
  test("agrees with policyBlock on plugin origins for every policy, with and without a plugin forced on by managed settings", () => {
    const rows = policies.flatMap(({ name, policy }) =>
      [false, true].map((forced) => {
        // The plugins of a start: one forced on when `forced`, one not, as a stored record may hold.
        const origins = forced ? [plugin(false), plugin(true)] : [plugin(false)];
        return { name, forced, quick: blocksEveryPluginHook(policy, forced), each: origins.every((origin) => policyBlock(origin, policy) !== undefined) };
      }),
    );
    expect(rows.filter((row) => row.quick !== row.each)).toEqual([]);
    expect(rows.length).toBe(policies.length * 2);
  });

  test("a non-managed disableAllHooks blocks plugins' hooks but not managed settings' hooks; only a managed one blocks those", () => {
    const user: HookPolicy = { disableAllHooks: { value: true, scope: "user" } };
    const managed: HookPolicy = { disableAllHooks: { value: true, scope: "managed" } };
    const managedOrigin: HookOrigin = { kind: "settings", scope: "managed", file: "/etc/clew/managed-settings.json" };
    expect({
      pluginsUnderUser: blocksEveryPluginHook(user, false),
      managedUnderUser: policyBlock(managedOrigin, user),
      managedUnderManaged: policyBlock(managedOrigin, managed),
      forcedUnderManagedOnly: blocksEveryPluginHook({ allowManagedHooksOnly: true }, true),
    }).toEqual({
      pluginsUnderUser: true,
      managedUnderUser: undefined,
      managedUnderManaged: "disableAllHooks is set in managed settings",
      forcedUnderManagedOnly: false,
    });
  });
});
