/**
 * `availableModels`: the models a session may use, as aliases (`sonnet`: that family), version
 * prefixes (`claude-sonnet-4`: every 4.x Sonnet) or ids. It constrains `--model`, ANTHROPIC_MODEL,
 * the `model` setting, `/model` and helpers' models alike.
 */
import { resolveModelId } from "./models.ts";

const FAMILY_ALIASES = new Set(["opus", "sonnet", "haiku", "fable"]);
const FAMILY = /^claude-(opus|sonnet|haiku|fable|mythos)-/;

/** Whether `modelId` (already resolved) is allowed; an unset list allows every model. */
export function modelAllowed(modelId: string, allowed: readonly string[] | undefined, pinned: Record<string, string> = {}): boolean {
  if (allowed === undefined) return true;
  const id = modelId.replace(/\[1m\]$/i, "").toLowerCase();
  for (const raw of allowed) {
    const entry = raw.trim().replace(/\[1m\]$/i, "").toLowerCase();
    if (entry === "") continue;
    if (FAMILY_ALIASES.has(entry) && (FAMILY.exec(id)?.[1] === entry || resolveModelId(entry, pinned).toLowerCase() === id)) return true;
    const resolved = resolveModelId(entry, pinned).toLowerCase();
    if (id === resolved || id.startsWith(`${resolved}-`)) return true;
  }
  return false;
}

/** The model a session falls back to when nothing chose one and the default is not allowed: the first entry that names one. */
export function firstAllowedModel(allowed: readonly string[], pinned: Record<string, string> = {}): string | undefined {
  const entry = allowed.map((raw) => raw.trim()).find((raw) => raw !== "");
  return entry === undefined ? undefined : resolveModelId(entry, pinned);
}
