/**
 * `skillOverrides` (settings): a user's say over how each of their skills and commands is offered,
 * without editing its file — `on` as written, `name-only` listed to the model without its
 * description, `user-invocable-only` kept from the model (typed `/name` still works), `off` neither
 * listed nor invocable. Plugin items are the plugin's to decide (spec plugins §skills): never overridden.
 */
import type { SkillOverrideMode } from "../settings/schema/settings.ts";
import type { Invocable } from "./types.ts";
export type SkillOverrides = Readonly<Record<string, SkillOverrideMode>>;

/** The mode an item is given: by its name, else by one of its other names (a nested skill's qualified one). */
function modeOf(item: Invocable, overrides: SkillOverrides): SkillOverrideMode | undefined {
  for (const name of [item.name, ...item.aliases]) if (Object.hasOwn(overrides, name)) return overrides[name];
  return undefined;
}

/** The item as the session offers it under `overrides`. */
export function withOverride(item: Invocable, overrides: SkillOverrides | undefined): Invocable {
  if (overrides === undefined || item.source.scope === "plugin") return item;
  const mode = modeOf(item, overrides);
  if (mode === undefined || mode === "on") return item;
  if (mode === "off") return { ...item, modelInvocable: false, userInvocable: false, override: mode };
  if (mode === "user-invocable-only") return { ...item, modelInvocable: false, override: mode };
  return { ...item, override: mode };
}

/** Why the registry refuses an item `skillOverrides` turned off or kept from the model; undefined when it does not. */
export function overrideRefusal(item: Invocable, by: "user" | "model"): string | undefined {
  if (item.override === "off") return `${by === "user" ? `/${item.name}` : `Skill "${item.name}"`} is turned off in settings (skillOverrides: "${item.name}": "off"); set it to "on" to use it again.`;
  if (item.override === "user-invocable-only" && by === "model") return `Skill "${item.name}" can only be run by the user, as /${item.name} (skillOverrides: "${item.name}": "user-invocable-only" in settings).`;
  return undefined;
}
