/**
 * An MCP tool result as the model sees it: every content block mapped to text or an image, the
 * text capped (MAX_MCP_OUTPUT_TOKENS), `structuredContent` kept as the call's data. A result is
 * data only: nothing in it is run or followed.
 */
import type { ImageBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ToolOutput } from "../../tools/types.ts";

/** Roughly four characters to a token: the budget the spec sets is in tokens. */
export const CHARS_PER_TOKEN = 4;
/** The most a tool's `_meta["anthropic/maxResultSizeChars"]` may raise its text limit to. */
export const MAX_RESULT_SIZE_CEILING = 500_000;

const API_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

export interface ResultLimits {
  maxOutputTokens: number;
  /** The tool's own `_meta["anthropic/maxResultSizeChars"]`, when it set one. */
  toolMaxChars?: number;
}

export function textLimit(limits: ResultLimits): number {
  const base = limits.maxOutputTokens * CHARS_PER_TOKEN;
  if (limits.toolMaxChars === undefined || !Number.isFinite(limits.toolMaxChars)) return base;
  return Math.max(base, Math.min(limits.toolMaxChars, MAX_RESULT_SIZE_CEILING));
}

type Block = TextBlockParam | ImageBlockParam;

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function mapBlock(raw: unknown, imageLimit: number): Block {
  const block = record(raw);
  switch (block.type) {
    case "text":
      return { type: "text", text: str(block.text) ?? "" };
    case "image": {
      const data = str(block.data) ?? "";
      const mimeType = str(block.mimeType) ?? "unknown";
      if (!API_IMAGE_TYPES.has(mimeType)) return { type: "text", text: `[image (${mimeType}, ${approxBytes(data)} bytes) not shown: the model accepts JPEG, PNG, GIF and WebP only]` };
      if (data.length > imageLimit) return { type: "text", text: `[image (${mimeType}, ${approxBytes(data)} bytes) not shown: larger than the MCP output limit (MAX_MCP_OUTPUT_TOKENS)]` };
      return { type: "image", source: { type: "base64", media_type: mimeType as "image/png", data } };
    }
    case "audio":
      return { type: "text", text: `[audio (${str(block.mimeType) ?? "unknown type"}, ${approxBytes(str(block.data) ?? "")} bytes) returned by the tool; audio cannot be passed to the model]` };
    case "resource_link": {
      const name = str(block.name) ?? str(block.title) ?? "resource";
      const mime = str(block.mimeType);
      const description = str(block.description);
      return { type: "text", text: `Resource link: ${name} <${str(block.uri) ?? "?"}>${mime ? ` (${mime})` : ""}${description ? ` — ${description}` : ""}` };
    }
    case "resource": {
      const resource = record(block.resource);
      const uri = str(resource.uri) ?? "?";
      const text = str(resource.text);
      if (text !== undefined) return { type: "text", text: `[resource ${uri}]\n${text}` };
      const mime = str(resource.mimeType) ?? "unknown type";
      return { type: "text", text: `[binary resource ${uri} (${mime}, ${approxBytes(str(resource.blob) ?? "")} bytes) not shown]` };
    }
    default:
      return { type: "text", text: `[content of type ${String(block.type)} not shown: clew does not know this MCP content type]` };
  }
}

function truncationNote(total: number, limit: number, limits: ResultLimits): string {
  return (
    `\n\n[Output truncated: this MCP tool result is ${total} characters, over the limit of ${limit} ` +
    `(MAX_MCP_OUTPUT_TOKENS=${limits.maxOutputTokens}). Ask the tool for less — a narrower query, ` +
    `a smaller page or range, a filter — to see the rest.]`
  );
}

/** Cuts the text blocks so their total stays within the limit; images pass. */
function capTexts(blocks: Block[], limits: ResultLimits): Block[] {
  const limit = textLimit(limits);
  const total = blocks.reduce((sum, block) => sum + (block.type === "text" ? block.text.length : 0), 0);
  if (total <= limit) return blocks;
  let left = limit;
  const kept: Block[] = [];
  for (const block of blocks) {
    if (block.type !== "text") {
      kept.push(block);
      continue;
    }
    if (left <= 0) continue;
    kept.push({ type: "text", text: block.text.slice(0, left) });
    left -= block.text.length;
  }
  const last = kept.findLast((block) => block.type === "text");
  const note = truncationNote(total, limit, limits);
  if (last && last.type === "text") last.text += note;
  else kept.push({ type: "text", text: note.trim() });
  return kept;
}

export function mapToolResult(raw: unknown, limits: ResultLimits): ToolOutput {
  const result = record(raw);
  const imageLimit = limits.maxOutputTokens * CHARS_PER_TOKEN;
  let blocks = Array.isArray(result.content) ? result.content.map((block) => mapBlock(block, imageLimit)) : [];
  const structured = result.structuredContent;
  if (blocks.length === 0 && structured !== undefined) blocks = [{ type: "text", text: JSON.stringify(structured) }];
  // A legacy (2024-10-07) server answers with `toolResult` instead of `content`.
  if (blocks.length === 0 && result.toolResult !== undefined) blocks = [{ type: "text", text: JSON.stringify(result.toolResult) }];
  const isError = result.isError === true;
  if (blocks.length === 0) blocks = [{ type: "text", text: isError ? "(the tool reported an error without a message)" : "(no output)" }];
  blocks = capTexts(blocks, limits);
  const content = blocks.every((block) => block.type === "text") ? blocks.map((block) => (block as TextBlockParam).text).join("\n") : blocks;
  return {
    content,
    ...(structured !== undefined ? { data: structured } : {}),
    ...(isError ? { isError: true } : {}),
  };
}
