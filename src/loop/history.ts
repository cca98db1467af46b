/**
 * Keeps the conversation valid for the API whatever happened before: consecutive messages of one
 * role are merged, tool_result blocks lead their user message, empty text is dropped, and every
 * tool_use is answered (a call cut short by a crash or an interrupt gets an error result).
 */
import type { ContentBlockParam, MessageParam } from "../model/types.ts";

export const INTERRUPTED_RESULT = "Interrupted: the session stopped before this tool call finished. Check the state of any files it may have touched before repeating it.";

/** The message's blocks as they should be sent; the very same array when nothing needs changing. */
function blocksOf(message: MessageParam): ContentBlockParam[] {
  if (typeof message.content === "string") {
    return message.content === "" ? [] : [{ type: "text", text: message.content }];
  }
  const blocks = message.content;
  let seenOther = false;
  for (const block of blocks) {
    if (block.type === "text" && block.text === "") return tidy(blocks, message.role);
    if (block.type !== "tool_result") seenOther = true;
    else if (seenOther && message.role === "user") return tidy(blocks, message.role);
  }
  return blocks;
}

function tidy(blocks: readonly ContentBlockParam[], role: MessageParam["role"]): ContentBlockParam[] {
  const kept = blocks.filter((block) => !(block.type === "text" && block.text === ""));
  return role === "user" ? toolResultsFirst(kept) : kept;
}

function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((block) => block.type === "tool_result");
  if (results.length === 0) return blocks;
  return [...results, ...blocks.filter((block) => block.type !== "tool_result")];
}

/**
 * The message list exactly as it should be sent: alternating roles, no empty content. Runs before
 * every request over the whole history, so a message that is already in shape is passed through
 * as the same object (no per-step copy of the history); only merged or repaired ones are new.
 * Callers must treat the result as read-only, as they treat stored history.
 */
export function normalizeMessages(messages: readonly MessageParam[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === message.role) {
      const merged = [...(last.content as ContentBlockParam[]), ...blocks];
      out[out.length - 1] = { role: message.role, content: message.role === "user" ? toolResultsFirst(merged) : merged } as MessageParam;
    } else if (blocks === message.content) {
      out.push(message);
    } else {
      out.push(message.role === "user" ? { role: "user", content: blocks } : { role: "assistant", content: blocks });
    }
  }
  return out;
}

function toolUseIds(message: MessageParam): string[] {
  if (message.role !== "assistant" || typeof message.content === "string") return [];
  return message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
}

function answeredIds(message: MessageParam | undefined): Set<string> {
  if (!message || message.role !== "user" || typeof message.content === "string") return new Set();
  return new Set(message.content.flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id] : [])));
}

/** Adds an error result for every tool_use left unanswered (e.g. by a kill -9 mid-tool). */
export function answerDanglingToolUses(messages: readonly MessageParam[]): MessageParam[] {
  const normalized = normalizeMessages(messages);
  const out: MessageParam[] = [];
  for (let i = 0; i < normalized.length; i++) {
    const message = normalized[i] as MessageParam;
    out.push(message);
    const ids = toolUseIds(message);
    if (ids.length === 0) continue;
    const next = normalized[i + 1];
    const answered = answeredIds(next);
    const missing: ContentBlockParam[] = ids
      .filter((id) => !answered.has(id))
      .map((id) => ({ type: "tool_result", tool_use_id: id, content: INTERRUPTED_RESULT, is_error: true }));
    if (missing.length === 0) continue;
    if (next && next.role === "user") {
      // A new message, not an edit of `next`: normalized messages may be the caller's own objects.
      normalized[i + 1] = { role: "user", content: toolResultsFirst([...missing, ...(next.content as ContentBlockParam[])]) };
    } else {
      out.push({ role: "user", content: missing });
    }
  }
  return out;
}

/**
 * History for another model: thinking blocks are signed by the model that wrote them and are
 * not valid for another one, so a model switch drops them (the text and tool calls stay).
 * Messages without thinking are kept as the same objects; an assistant message left empty is
 * dropped by normalizeMessages before sending.
 */
export function withoutThinking(messages: readonly MessageParam[]): MessageParam[] {
  return messages.map((message) => {
    if (message.role !== "assistant" || typeof message.content === "string") return message;
    const kept = message.content.filter((block) => block.type !== "thinking" && block.type !== "redacted_thinking");
    return kept.length === message.content.length ? message : { role: "assistant", content: kept };
  });
}
