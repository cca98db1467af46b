// settings/ may not import permissions/ (test/arch), so it repeats the RuleInput shape; this
// keeps the two in step: loaded rules must be usable wherever the permission engine wants rules.
import { expect, test } from "bun:test";
import type { PermissionMode, RuleInput } from "../../../src/permissions/types.ts";
import type { DefaultModeSetting, Frozen, Settings } from "../../../src/settings/types.ts";
import { layout } from "./fixture.ts";

test("settings rules are permission RuleInputs and every permission mode is a settings mode", () => {
  const space = layout();
  space.write("user.json", JSON.stringify({ permissions: { deny: ["WebFetch"] } }));
  const rules: RuleInput[] = space.load().rules;
  const mode: PermissionMode = "dontAsk";
  const setting: DefaultModeSetting = mode;
  expect(setting).toBe("dontAsk");
  expect(rules).toEqual([{ text: "WebFetch", kind: "deny", source: { scope: "user", file: space.path("user.json"), root: space.configDir } }]);
});

// Compiled by `tsc` (never called): the merged settings keep their typed keys next to unknown ones.
export function typedKeysStayTyped(settings: Frozen<Settings>): void {
  const model: string | undefined = settings.model;
  const days: number = settings.cleanupPeriodDays;
  const effort: "low" | "medium" | "high" | "xhigh" | undefined = settings.effortLevel;
  const deny: readonly string[] = settings.permissions.deny;
  const handler = settings.hooks.PreToolUse?.[0]?.hooks[0];
  const command: string | undefined = handler?.type === "command" ? handler.command : undefined;
  const unknownKey: unknown = settings.someFutureKey;
  // @ts-expect-error `model` is a string, not a number
  const wrong: number = settings.model;
  void [model, days, effort, deny, command, unknownKey, wrong];
}
