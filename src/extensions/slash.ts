/**
 * Reading `/name args` at the start of a prompt (spec A.5): up to six inline skills may be
 * stacked (`/write-tests /fix-issue 123` runs both, each with `$ARGUMENTS` = `123`); stacking
 * stops at the first word that is not an inline, user-invocable skill or command. A forked skill
 * runs alone. Pure: the registry answers every lookup.
 */
import type { ExtensionRegistry } from "./registry.ts";
import type { Invocable } from "./types.ts";

export const MAX_STACKED_SKILLS = 6;

export type SlashInvocation =
  | { ok: true; items: Invocable[]; args: string }
  | { ok: false; code: "not-user-invocable"; message: string };

/**
 * Undefined when the prompt does not start with a known skill or command (a built-in `/help`, a
 * typo, or no slash at all): the caller decides what that means.
 */
export function parseSlashInvocation(prompt: string, registry: ExtensionRegistry): SlashInvocation | undefined {
  const items: Invocable[] = [];
  let rest = prompt.trimStart();
  while (items.length < MAX_STACKED_SKILLS) {
    const word = /^\/\S+/.exec(rest)?.[0];
    if (word === undefined) break;
    const resolved = registry.resolveInvocation(word, "user");
    if (!resolved.ok) {
      if (items.length === 0 && resolved.code === "not-user-invocable") return { ok: false, code: resolved.code, message: resolved.message };
      break;
    }
    const forked = resolved.item.context === "fork";
    if (forked && items.length > 0) break;
    items.push(resolved.item);
    rest = rest.slice(word.length).trimStart();
    if (forked) break;
  }
  return items.length === 0 ? undefined : { ok: true, items, args: rest.trimEnd() };
}
