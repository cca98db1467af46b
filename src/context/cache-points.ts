/**
 * Marks the end of the newest message as a cache breakpoint, so each request reads everything
 * before it from the previous request's cache. Works on copies: stored history never carries
 * breakpoints, so old ones cannot pile up past the API's limit of four.
 */
import type { ContentBlockParam, MessageParam } from "../model/types.ts";

const CACHEABLE = new Set(["text", "image", "tool_use", "tool_result", "document"]);

export function withMessageBreakpoint(messages: readonly MessageParam[]): MessageParam[] {
  const out = [...messages];
  const lastIndex = out.length - 1;
  const last = out[lastIndex];
  if (!last || typeof last.content === "string") return out;
  const blocks = [...last.content];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as ContentBlockParam;
    if (!CACHEABLE.has(block.type)) continue;
    blocks[i] = { ...block, cache_control: { type: "ephemeral" } } as ContentBlockParam;
    out[lastIndex] = { ...last, content: blocks } as MessageParam;
    return out;
  }
  return out;
}
