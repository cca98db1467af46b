/**
 * What MCP adds to a typed prompt: `/mcp__<server>__<prompt> args` becomes the prompt the server
 * renders, and `@server:uri` mentions attach the resource's contents — the same in the terminal
 * and in `clew -p`. Anything else passes through untouched.
 */
import type { ContentBlockParam } from "../model/types.ts";
import type { McpManager } from "../mcp/runtime/manager.ts";
import type { Expansion } from "./slash-expansion.ts";

/** `@server:protocol://path`: a server name, a colon, then a URI with a scheme. */
const MENTION = /(?:^|\s)@([A-Za-z0-9_-]+):([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s]+)/g;

export async function expandMcp(blocks: ContentBlockParam[], manager: McpManager, signal: AbortSignal): Promise<Expansion | undefined> {
  const first = blocks[0];
  if (first?.type !== "text") return undefined;
  const typed = first.text.trim();
  if (typed.startsWith("/mcp__")) {
    const space = typed.search(/\s/);
    const command = space === -1 ? typed : typed.slice(0, space);
    const args = space === -1 ? "" : typed.slice(space + 1).trim();
    const rendered = await manager.getPrompt(command, args, signal);
    if (!rendered.ok) return { kind: "refused", reason: `${command}: ${rendered.message}` };
    return { kind: "send", blocks: [{ type: "text", text: `<command-name>${command}</command-name>\n${rendered.text}` }, ...blocks.slice(1)] };
  }
  const mentions = [...first.text.matchAll(MENTION)];
  if (mentions.length === 0) return undefined;
  const attached: ContentBlockParam[] = [];
  for (const [, server, uri] of mentions) {
    if (!server || !uri) continue;
    const read = await manager.readResource(server, uri, signal);
    // A mention that cannot be read stays plain text; say why beside it, so the model is not left guessing.
    attached.push({ type: "text", text: read.ok ? `<mcp-resource server="${server}" uri="${uri}">\n${read.text}\n</mcp-resource>` : `(@${server}:${uri} could not be read: ${read.message})` });
  }
  return { kind: "send", blocks: [...blocks, ...attached] };
}
