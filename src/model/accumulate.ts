/**
 * Folds the raw SSE events of one response into a complete assistant message. Tool inputs
 * arrive as partial JSON and are parsed once the block closes; thinking blocks and their
 * signatures are kept verbatim because the API requires them back unmodified.
 */
import type { ContentBlock, RawMessageStreamEvent, StopReason } from "./types.ts";
import type { AssistantMessage, TokenUsage } from "./types.ts";

interface UsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** Server-side tools the API ran for the reply (billed per use), cumulative like the rest. */
  server_tool_use?: { web_search_requests?: number | null } | null;
}

function mergeUsage(into: TokenUsage, from: UsageFields | null | undefined): void {
  if (!from) return;
  if (typeof from.input_tokens === "number") into.inputTokens = from.input_tokens;
  if (typeof from.output_tokens === "number") into.outputTokens = from.output_tokens;
  if (typeof from.cache_read_input_tokens === "number") into.cacheReadInputTokens = from.cache_read_input_tokens;
  if (typeof from.cache_creation_input_tokens === "number") into.cacheCreationInputTokens = from.cache_creation_input_tokens;
  const searches = from.server_tool_use?.web_search_requests;
  if (typeof searches === "number") {
    if (searches > 0) into.webSearchRequests = searches;
    else delete into.webSearchRequests;
  }
}

export class MessageAccumulator {
  private id = "";
  private model = "";
  private readonly blocks: ContentBlock[] = [];
  private readonly partialJson = new Map<number, string>();
  private readonly malformed: string[] = [];
  private stopReason: StopReason | null = null;
  private readonly usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
  private stopped = false;

  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.id = event.message.id;
        this.model = event.message.model;
        mergeUsage(this.usage, event.message.usage);
        return;
      case "content_block_start":
        // A shallow copy is enough: deltas only ever replace its top-level fields.
        this.blocks[event.index] = { ...event.content_block } as ContentBlock;
        // A server tool's input streams like a client tool's; its result block arrives whole.
        if (event.content_block.type === "tool_use" || event.content_block.type === "server_tool_use") this.partialJson.set(event.index, "");
        return;
      case "content_block_delta":
        this.applyDelta(event.index, event.delta);
        return;
      case "content_block_stop":
        this.closeBlock(event.index);
        return;
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        mergeUsage(this.usage, event.usage as UsageFields);
        return;
      case "message_stop":
        this.stopped = true;
        return;
    }
  }

  private applyDelta(index: number, delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"]): void {
    const block = this.blocks[index];
    if (!block) return;
    switch (delta.type) {
      case "text_delta":
        if (block.type === "text") block.text += delta.text;
        return;
      case "input_json_delta":
        this.partialJson.set(index, (this.partialJson.get(index) ?? "") + delta.partial_json);
        return;
      case "thinking_delta":
        if (block.type === "thinking") block.thinking += delta.thinking;
        return;
      case "signature_delta":
        if (block.type === "thinking") block.signature = delta.signature;
        return;
      case "citations_delta":
        if (block.type === "text") block.citations = [...(block.citations ?? []), delta.citation];
        return;
    }
  }

  private closeBlock(index: number): void {
    const block = this.blocks[index];
    const json = this.partialJson.get(index);
    if (!block || json === undefined || (block.type !== "tool_use" && block.type !== "server_tool_use")) return;
    this.partialJson.delete(index);
    if (json.trim() === "") {
      // No deltas: a server tool called by code execution arrives with its whole input at the start.
      if (block.type === "tool_use" || block.input === undefined || block.input === null) block.input = {};
      return;
    }
    try {
      block.input = JSON.parse(json) as Record<string, unknown>;
    } catch {
      block.input = {};
      if (block.type === "tool_use") this.malformed.push(block.id);
    }
  }

  get complete(): boolean {
    return this.stopped;
  }

  finish(): AssistantMessage {
    // Blocks still open when the stream ended (cut off) are closed as best we can.
    for (const index of [...this.partialJson.keys()]) this.closeBlock(index);
    return {
      id: this.id,
      model: this.model,
      content: this.blocks.filter((block): block is ContentBlock => block !== undefined),
      stopReason: this.stopReason,
      usage: { ...this.usage },
      malformedToolUseIds: [...this.malformed],
    };
  }
}
