/**
 * Message cache breakpoints. Each request marks the end of its newest message and the end of
 * the message that was newest in the previous request, so the API finds the previous request's
 * cache entry exactly (no reliance on its 20-block lookback) and writes a new one for the next.
 * Works on copies: stored history never carries breakpoints, so they cannot pile up past four.
 */
import type { ContentBlockParam, MessageParam } from "../model/types.ts";

const CACHEABLE = new Set(["text", "image", "tool_use", "tool_result", "document"]);

function markLastBlock(message: MessageParam): MessageParam {
  if (typeof message.content === "string") {
    return { ...message, content: [{ type: "text", text: message.content, cache_control: { type: "ephemeral" } }] } as MessageParam;
  }
  const blocks = [...message.content];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as ContentBlockParam;
    if (!CACHEABLE.has(block.type)) continue;
    blocks[i] = { ...block, cache_control: { type: "ephemeral" } } as ContentBlockParam;
    return { ...message, content: blocks } as MessageParam;
  }
  return message;
}

/** Two breakpoints at most: with the system prompt's two, the request stays within the API's four. */
export function withMessageBreakpoints(messages: readonly MessageParam[]): MessageParam[] {
  const out = [...messages];
  const last = out.length - 1;
  if (last < 0) return out;
  out[last] = markLastBlock(out[last] as MessageParam);
  // The previous request ended with the user message two before this one.
  const previous = last - 2;
  if (previous >= 0 && out[previous]?.role === "user") out[previous] = markLastBlock(out[previous] as MessageParam);
  return out;
}
