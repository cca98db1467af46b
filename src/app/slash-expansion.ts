/**
 * A prompt that starts with `/name` (up to six stacked skills, then the arguments) becomes the
 * rendered skill or command before it is sent — the same in the terminal and in `clew -p`.
 * Anything else, built-in commands included, passes through untouched.
 */
import type { ContentBlockParam } from "../model/types.ts";
import { renderItem, type InvocationDeps } from "./invocations.ts";

export type Expansion = { kind: "send"; blocks: ContentBlockParam[] } | { kind: "refused"; reason: string };

export async function expandSlash(blocks: ContentBlockParam[], deps: InvocationDeps | undefined, signal: AbortSignal): Promise<Expansion> {
  const first = blocks[0];
  if (!deps || first?.type !== "text" || !first.text.trimStart().startsWith("/")) return { kind: "send", blocks };
  const { parseSlashInvocation } = await import("../extensions/index.ts");
  const parsed = parseSlashInvocation(first.text, await deps.registry.get());
  if (!parsed) return { kind: "send", blocks };
  if (!parsed.ok) return { kind: "refused", reason: parsed.message };
  const texts: string[] = [];
  for (const item of parsed.items) {
    const rendered = await renderItem(deps, item, parsed.args, signal);
    if (!rendered.ok) return { kind: "refused", reason: `/${item.name}: ${rendered.message}` };
    texts.push(rendered.text);
  }
  const typed = first.text.trim();
  const expanded: ContentBlockParam = { type: "text", text: `<command-name>${typed.split(/\s/)[0]}</command-name>\n${texts.join("\n\n")}` };
  return { kind: "send", blocks: [expanded, ...blocks.slice(1)] };
}
