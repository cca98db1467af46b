/**
 * Compaction: the pure parts. Builds the summary request from the full history (same prefix, so
 * it reads the prompt cache), chooses the recent messages to keep verbatim, and assembles the new
 * history: a summary message first (with every user prompt so far, verbatim, so constraints
 * survive whatever the summary says), then the kept messages.
 */
import compactPrompt from "./prompts/compact.md" with { type: "text" };
import type { ContentBlockParam, MessageParam } from "../model/types.ts";
import { truncateMiddle } from "../util/truncate.ts";
import { isSystemNote } from "../util/system-note.ts";

export const SUMMARY_OPENING = "This session is being continued from a previous conversation that ran out of context.";
const PROMPT_OPEN = "<user-message>";
const PROMPT_CLOSE = "</user-message>";
const MAX_PROMPT_CHARS = 4000;
const MAX_PROMPTS_CHARS = 24_000;

export function summaryRequest(history: readonly MessageParam[], instructions?: string): MessageParam[] {
  const extra = instructions?.trim() ? `\n\nAdditional instructions for this summary:\n${instructions.trim()}` : "";
  return [...history, { role: "user", content: [{ type: "text", text: `${compactPrompt.trim()}${extra}` }] }];
}

/** A message's content as blocks (a plain string is one text block). */
export function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function isSummary(message: MessageParam): boolean {
  const first = blocks(message)[0];
  return message.role === "user" && first?.type === "text" && first.text.startsWith(SUMMARY_OPENING);
}

/** Every prompt the user typed, oldest first, including those carried by earlier summaries. */
export function userPrompts(history: readonly MessageParam[]): string[] {
  const prompts: string[] = [];
  for (const message of history) {
    if (message.role !== "user") continue;
    if (isSummary(message)) {
      const text = (blocks(message)[0] as { text: string }).text;
      for (const match of text.matchAll(/<user-message>\n([\s\S]*?)\n<\/user-message>/g)) prompts.push(match[1] as string);
      continue;
    }
    for (const block of blocks(message)) {
      if (block.type === "text" && !isSystemNote(block.text)) prompts.push(block.text);
    }
  }
  return prompts;
}

function promptSection(prompts: readonly string[]): string {
  const kept: string[] = [];
  let total = 0;
  // Newest prompts matter most when the budget runs out; the first one (the task) always stays.
  for (let i = prompts.length - 1; i >= 0; i--) {
    const text = truncateMiddle(prompts[i] as string, MAX_PROMPT_CHARS);
    if (i !== 0 && total + text.length > MAX_PROMPTS_CHARS) continue;
    kept.unshift(`${PROMPT_OPEN}\n${text}\n${PROMPT_CLOSE}`);
    total += text.length;
  }
  return kept.join("\n");
}

/**
 * The messages kept verbatim: the last `keep` messages, starting at an assistant message so that
 * the summary (a user message) can precede them and every tool_use keeps its result.
 */
export function recentTail(history: readonly MessageParam[], keep: number, maxChars: number): MessageParam[] {
  let start = Math.max(0, history.length - keep);
  while (start < history.length && history[start]?.role !== "assistant") start += 1;
  const tail = history.slice(start).map((message) => shrinkToolResults(message, Math.floor(maxChars / Math.max(1, keep))));
  return tail;
}

function shrinkToolResults(message: MessageParam, maxChars: number): MessageParam {
  if (message.role !== "user" || typeof message.content === "string") return message;
  let changed = false;
  const content = message.content.map((block) => {
    // The allowance covers the truncation marker, so shortening twice changes nothing.
    if (block.type !== "tool_result" || typeof block.content !== "string" || block.content.length <= maxChars + 200) return block;
    changed = true;
    return { ...block, content: truncateMiddle(block.content, maxChars) };
  });
  return changed ? { role: "user", content } : message;
}

export interface CompactedHistoryInput {
  summary: string;
  /** Skills and the todo list carried over (carried-over.ts). */
  carried?: readonly string[];
  prompts: readonly string[];
  workingSet: readonly string[];
  transcriptPath: string | undefined;
  tail: readonly MessageParam[];
}

export function compactedHistory(input: CompactedHistoryInput): MessageParam[] {
  const parts = [
    `${SUMMARY_OPENING} The summary below covers the earlier portion of the conversation.`,
    input.summary.trim(),
    `Every message the user has sent so far, verbatim:\n${promptSection(input.prompts)}`,
  ];
  parts.push(...(input.carried ?? []));
  if (input.workingSet.length > 0) parts.push(`Files recently read or edited: ${input.workingSet.join(", ")}. Read them again before relying on their contents.`);
  if (input.transcriptPath) parts.push(`The full earlier transcript is at ${input.transcriptPath} if you need exact details.`);
  parts.push("Continue the work from where it left off without asking the user any further questions.");
  return [{ role: "user", content: [{ type: "text", text: parts.join("\n\n") }] }, ...input.tail];
}

/** What the API charges for an image at most (1.15 megapixels ≈ 1,600 tokens), whatever its base64 length. */
const IMAGE_TOKENS = 1_600;
/** A PDF page costs 1,500–3,000 tokens (text plus the page image); pages are ~100 KB of base64 on average. */
const DOCUMENT_TOKENS_PER_100KB = 3_000;

/** Whether any block (or a tool result's block) carries base64 data: images and PDFs. */
function carriesMedia(messages: readonly MessageParam[]): boolean {
  const inBlocks = (blocks: unknown): boolean =>
    Array.isArray(blocks) &&
    blocks.some((block: { type?: unknown; source?: { type?: unknown }; content?: unknown }) => block.source?.type === "base64" || (block.type === "tool_result" && inBlocks(block.content)));
  return messages.some((message) => inBlocks(message.content));
}

/**
 * Rough token count for text we have not sent yet (about four bytes per token). Without media
 * the history is stringified plainly: a replacer function would run for every key, in the
 * interpreter, before every request.
 */
export function estimateTokens(messages: readonly MessageParam[]): number {
  if (!carriesMedia(messages)) return Math.ceil(JSON.stringify(messages).length / 4);
  let media = 0;
  // Base64 is not text: counted at 4 characters a token, one screenshot would look like ~1M tokens.
  const text = JSON.stringify(messages, (key, value: unknown) => {
    if (key !== "source" || typeof value !== "object" || value === null) return value;
    const source = value as { type?: unknown; data?: unknown; media_type?: unknown };
    if (source.type !== "base64" || typeof source.data !== "string") return value;
    media += source.media_type === "application/pdf" ? Math.ceil(source.data.length / 100_000) * DOCUMENT_TOKENS_PER_100KB : IMAGE_TOKENS;
    return { type: "base64", media_type: source.media_type };
  });
  return Math.ceil(text.length / 4) + media;
}

/**
 * The cheaper first step when the window fills: shorten tool results older than the most recent
 * `keep` messages to their head and tail. Every tool_use/tool_result pair stays intact.
 */
export function trimOldToolResults(
  history: readonly MessageParam[],
  keep: number,
  maxChars: number,
): { messages: MessageParam[]; savedTokens: number } {
  const cut = Math.max(0, history.length - keep);
  let saved = 0;
  const messages = history.map((message, index) => {
    if (index >= cut) return message;
    const shrunk = shrinkToolResults(message, maxChars);
    if (shrunk !== message) saved += estimateTokens([message]) - estimateTokens([shrunk]);
    return shrunk;
  });
  return { messages, savedTokens: saved };
}
