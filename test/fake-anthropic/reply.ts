/**
 * The reply builder: one scripted assistant message, rendered either as the exact ordered SSE
 * events of a streamed response or as the non-streaming JSON `Message`.
 *
 *   reply().thinking("plan").text("Reading it.").toolUse("Read", { file_path: "/a" })
 */
import { splitJson, splitText, toSseText } from "./sse.ts";
import type {
  ContentBlock,
  JsonObject,
  Message,
  StopReason,
  StreamEvent,
  Usage,
  UsageOverride,
  WebSearchCitation,
  WebSearchErrorCode,
  WebSearchResult,
} from "./types.ts";

/** A search hit as a script writes it; the opaque fields the API adds are filled in. */
export interface SearchHit {
  title: string;
  url: string;
  pageAge?: string | null;
}

/** What the server knows about the request a reply answers. */
export interface RenderContext {
  /** The request's model; echoed unless the reply pins its own. */
  model?: string;
  messageId?: string;
  /** Input-side usage from the cache simulation; a reply's explicit usage() wins. */
  input?: {
    input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
    ephemeral_5m_input_tokens?: number;
    ephemeral_1h_input_tokens?: number;
  };
}

let toolUseCounter = 0;
let messageCounter = 0;

/** Unique within the process, shaped like the API's ids so prefix checks (`toolu_`) hold. */
export function newToolUseId(): string {
  toolUseCounter += 1;
  return `toolu_fake${String(toolUseCounter).padStart(14, "0")}`;
}

/** Server tool calls carry `srvtoolu_` ids, distinct from client tool calls. */
export function newServerToolUseId(): string {
  toolUseCounter += 1;
  return `srvtoolu_fake${String(toolUseCounter).padStart(11, "0")}`;
}

/** Deterministic stand-ins for the encrypted fields of search results and citations. */
const opaque = (kind: string, text: string): string => Buffer.from(`${kind}:${text}`).toString("base64");

export function newMessageId(): string {
  messageCounter += 1;
  return `msg_fake${String(messageCounter).padStart(16, "0")}`;
}

/** A deterministic stand-in for the opaque signature the API attaches to thinking. */
export function fakeSignature(thinking: string): string {
  const digest = new Bun.CryptoHasher("sha256").update(`sig:${thinking}`).digest("base64");
  return `EqQBCkYIBxgCKkD${digest}`;
}

const utf8 = new TextEncoder();
const tokensOf = (text: string): number => Math.ceil(utf8.encode(text).length / 4);

export class Reply {
  readonly kind = "reply";
  readonly #blocks: ContentBlock[] = [];
  #stopReason: StopReason | undefined;
  #stopSequence: string | null = null;
  #stopDetails: JsonObject | null = null;
  #usage: UsageOverride = {};
  #model: string | undefined;
  /** Tool inputs streamed verbatim instead of as JSON.stringify(input): cut-off calls. */
  readonly #rawInput = new Map<string, string>();

  text(text: string): this {
    this.#blocks.push({ type: "text", text });
    return this;
  }

  /** A thinking block; `signature` defaults to a deterministic fake. Empty text = display "omitted". */
  thinking(thinking: string, signature: string = fakeSignature(thinking)): this {
    this.#blocks.push({ type: "thinking", thinking, signature });
    return this;
  }

  redactedThinking(data: string = Buffer.from(`redacted:${this.#blocks.length}`).toString("base64")): this {
    this.#blocks.push({ type: "redacted_thinking", data });
    return this;
  }

  /**
   * A search the API ran in this reply: `server_tool_use` (name web_search) followed by its
   * `web_search_tool_result`, as the real API puts both in the one assistant message.
   */
  webSearch(query: string, hits: readonly SearchHit[], id: string = newServerToolUseId()): this {
    const content: WebSearchResult[] = hits.map((hit) => ({
      type: "web_search_result",
      url: hit.url,
      title: hit.title,
      encrypted_content: opaque("page", hit.url),
      page_age: hit.pageAge ?? null,
    }));
    this.#blocks.push(
      { type: "server_tool_use", id, name: "web_search", input: { query }, caller: { type: "direct" } },
      { type: "web_search_tool_result", tool_use_id: id, content, caller: { type: "direct" } },
    );
    return this;
  }

  /** A search that failed: its result block carries `web_search_tool_result_error` (HTTP 200, as the API does). */
  webSearchError(query: string, errorCode: WebSearchErrorCode, id: string = newServerToolUseId()): this {
    this.#blocks.push(
      { type: "server_tool_use", id, name: "web_search", input: { query }, caller: { type: "direct" } },
      { type: "web_search_tool_result", tool_use_id: id, content: { type: "web_search_tool_result_error", error_code: errorCode }, caller: { type: "direct" } },
    );
    return this;
  }

  /** Text citing search results (streamed as citations_delta events before its text). */
  citedText(text: string, sources: ReadonlyArray<{ url: string; title: string; citedText: string }>): this {
    const citations: WebSearchCitation[] = sources.map((source) => ({
      type: "web_search_result_location",
      url: source.url,
      title: source.title,
      encrypted_index: opaque("index", `${source.url}#${source.citedText}`),
      cited_text: source.citedText,
    }));
    this.#blocks.push({ type: "text", text, citations });
    return this;
  }

  toolUse(name: string, input: JsonObject, id: string = newToolUseId()): this {
    this.#blocks.push({ type: "tool_use", id, name, input });
    return this;
  }

  /**
   * A tool call whose streamed input JSON is `partialJson` as given, typically incomplete
   * because the reply hit max_tokens mid-call (pair with `.stop("max_tokens")`).
   */
  toolUseCutOff(name: string, partialJson: string, id: string = newToolUseId()): this {
    this.#blocks.push({ type: "tool_use", id, name, input: {} });
    this.#rawInput.set(id, partialJson);
    return this;
  }

  stop(reason: StopReason, options: { sequence?: string; details?: JsonObject } = {}): this {
    this.#stopReason = reason;
    this.#stopSequence = options.sequence ?? null;
    this.#stopDetails = options.details ?? null;
    return this;
  }

  usage(usage: UsageOverride): this {
    this.#usage = { ...this.#usage, ...usage };
    return this;
  }

  /** Answer with this model name instead of echoing the request's. */
  model(name: string): this {
    this.#model = name;
    return this;
  }

  get blocks(): readonly ContentBlock[] {
    return this.#blocks.map(cloneBlock);
  }

  get toolUseIds(): string[] {
    return this.#blocks.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
  }

  get stopReason(): StopReason {
    if (this.#stopReason) return this.#stopReason;
    return this.#blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  }

  /** Estimated like input: ceil(bytes / 4) of what the model produced, at least 1. */
  get outputTokens(): number {
    if (this.#usage.output_tokens !== undefined) return this.#usage.output_tokens;
    const produced = this.#blocks.map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "thinking") return block.thinking;
      if (block.type === "redacted_thinking") return block.data;
      if (block.type === "web_search_tool_result") return "";
      return block.name + JSON.stringify(block.input);
    });
    return Math.max(1, tokensOf(produced.join("")));
  }

  /** Final usage: the simulated input side, then the reply's own overrides. */
  usageFor(context: RenderContext = {}): Usage {
    const input = context.input;
    const read = this.#usage.cache_read_input_tokens ?? input?.cache_read_input_tokens ?? 0;
    const creation = this.#usage.cache_creation_input_tokens ?? input?.cache_creation_input_tokens ?? 0;
    const creation1h = Math.min(creation, input?.ephemeral_1h_input_tokens ?? 0);
    return {
      input_tokens: this.#usage.input_tokens ?? input?.input_tokens ?? 0,
      output_tokens: this.outputTokens,
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: creation - creation1h, ephemeral_1h_input_tokens: creation1h },
      ...(this.webSearchRequests > 0 ? { server_tool_use: { web_search_requests: this.webSearchRequests, web_fetch_requests: 0 } } : {}),
      service_tier: "standard",
    };
  }

  /** Searches the API ran for this reply: each is billed, and reported in the usage. */
  get webSearchRequests(): number {
    return this.#blocks.filter((block) => block.type === "server_tool_use" && block.name === "web_search").length;
  }

  /** The non-streaming JSON response body. */
  message(context: RenderContext = {}): Message {
    return {
      ...this.#envelope(context),
      content: this.#blocks.map(cloneBlock),
      stop_reason: this.stopReason,
      stop_sequence: this.#stopSequence,
      stop_details: this.#stopDetails,
      usage: this.usageFor(context),
    };
  }

  /** The exact ordered stream events, pings included. */
  events(context: RenderContext = {}): StreamEvent[] {
    const usage = this.usageFor(context);
    const events: StreamEvent[] = [
      {
        type: "message_start",
        message: {
          ...this.#envelope(context),
          content: [],
          stop_reason: null,
          stop_sequence: null,
          stop_details: null,
          // Searches run later in the reply: the opening usage has no server_tool_use yet.
          usage: { ...withoutServerToolUse(usage), cache_creation: { ...usage.cache_creation }, output_tokens: 1 },
        },
      },
    ];
    this.#blocks.forEach((block, index) => {
      events.push(...blockEvents(block, index, this.#rawInput));
      // The API sends a ping early in the stream; clients must skip it wherever it lands.
      if (index === 0) events.splice(2, 0, { type: "ping" });
    });
    if (this.#blocks.length === 0) events.push({ type: "ping" });
    events.push(
      { type: "ping" },
      {
        type: "message_delta",
        delta: { stop_reason: this.stopReason, stop_sequence: this.#stopSequence, stop_details: this.#stopDetails },
        usage: {
          output_tokens: usage.output_tokens,
          input_tokens: usage.input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          ...(usage.server_tool_use ? { server_tool_use: { ...usage.server_tool_use } } : {}),
        },
      },
      { type: "message_stop" },
    );
    return events;
  }

  toSse(context: RenderContext = {}): string {
    return toSseText(this.events(context));
  }

  #envelope(context: RenderContext): { id: string; type: "message"; role: "assistant"; model: string } {
    return {
      id: context.messageId ?? newMessageId(),
      type: "message",
      role: "assistant",
      model: this.#model ?? context.model ?? "claude-fake",
    };
  }
}

export function reply(): Reply {
  return new Reply();
}

function withoutServerToolUse(usage: Usage): Usage {
  const { server_tool_use: _searches, ...rest } = usage;
  return rest;
}

function blockEvents(block: ContentBlock, index: number, rawInput: ReadonlyMap<string, string>): StreamEvent[] {
  const delta = (d: Extract<StreamEvent, { type: "content_block_delta" }>["delta"]): StreamEvent => ({
    type: "content_block_delta",
    index,
    delta: d,
  });
  const start = (content_block: ContentBlock): StreamEvent => ({ type: "content_block_start", index, content_block });
  const stop: StreamEvent = { type: "content_block_stop", index };
  switch (block.type) {
    case "text":
      return [
        start({ type: "text", text: "" }),
        ...(block.citations ?? []).map((citation) => delta({ type: "citations_delta", citation })),
        ...splitText(block.text).map((text) => delta({ type: "text_delta", text })),
        stop,
      ];
    case "server_tool_use":
      // Like a client tool: the input streams as partial JSON; then a pause while the search runs.
      return [
        start({ type: "server_tool_use", id: block.id, name: block.name, input: {}, caller: { ...block.caller } }),
        ...splitJson(JSON.stringify(block.input)).map((partial_json) => delta({ type: "input_json_delta", partial_json })),
        stop,
      ];
    case "web_search_tool_result":
      // The results arrive whole in the block's start event, with no deltas.
      return [start(structuredClone(block)), stop];
    case "thinking":
      return [
        start({ type: "thinking", thinking: "", signature: "" }),
        ...splitText(block.thinking).map((thinking) => delta({ type: "thinking_delta", thinking })),
        delta({ type: "signature_delta", signature: block.signature }),
        stop,
      ];
    case "redacted_thinking":
      return [start({ ...block }), stop];
    case "tool_use":
      return [
        start({ type: "tool_use", id: block.id, name: block.name, input: {} }),
        ...splitJson(rawInput.get(block.id) ?? JSON.stringify(block.input)).map((partial_json) =>
          delta({ type: "input_json_delta", partial_json }),
        ),
        stop,
      ];
  }
}

function cloneBlock(block: ContentBlock): ContentBlock {
  return structuredClone(block);
}
