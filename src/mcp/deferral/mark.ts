/**
 * The request side of deferral. Every definition stays in `tools[]` on every request (so that
 * array is byte-identical); the deferred ones carry `defer_loading: true`, which keeps them out
 * of the prompt until a `tool_reference` in a tool result expands them at that point.
 */

/** The API's `defer_loading` flag on the definitions of deferred tools; the others are untouched. */
export function markDeferred<T extends { name: string }>(apiTools: readonly T[], deferred: ReadonlySet<string>): Array<T & { defer_loading?: true }> {
  return apiTools.map((tool) => (deferred.has(tool.name) ? { ...tool, defer_loading: true as const } : tool));
}

interface BlockLike {
  type: string;
}

interface MessageLike {
  role: string;
  content: string | readonly BlockLike[];
}

const isReference = (block: BlockLike): block is BlockLike & { tool_name: string } =>
  block.type === "tool_reference" && typeof (block as { tool_name?: unknown }).tool_name === "string";

/**
 * History may name tools that are no longer deferred in this request (a server went away, a
 * resumed session without it, tool search now off). The API answers such a `tool_reference` with
 * a 400, so it goes out as a line of text instead. Returns the same array when nothing changed.
 */
export function resolveReferences<M extends MessageLike>(messages: readonly M[], deferred: ReadonlySet<string>): readonly M[] {
  const unresolved = (item: BlockLike): boolean => isReference(item) && !deferred.has(item.tool_name);
  let out: M[] | undefined;
  for (const [i, message] of messages.entries()) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    const blocks: BlockLike[] = [...message.content];
    let changed = false;
    for (const [j, block] of blocks.entries()) {
      const content = (block as { content?: unknown }).content;
      if (block.type !== "tool_result" || !Array.isArray(content) || !(content as BlockLike[]).some(unresolved)) continue;
      const replaced = (content as BlockLike[]).map((item) =>
        isReference(item) && unresolved(item) ? { type: "text", text: `(The tool ${item.tool_name} is no longer available.)` } : item,
      );
      blocks[j] = { ...block, content: replaced } as BlockLike;
      changed = true;
    }
    if (!changed) continue;
    out ??= [...messages];
    out[i] = { ...message, content: blocks } as M;
  }
  return out ?? messages;
}
