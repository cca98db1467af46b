/**
 * Prompt-cache simulation, following the API's rules (spec/sessions-context.md §8):
 *
 * - The prompt is a sequence of blocks in the order tools → system → messages. A block's tokens
 *   are ceil(bytes / 4) of its canonical JSON (sorted keys, cache_control left out).
 * - Tools with `defer_loading: true` are not part of the prefix (neither tokens nor key: adding or
 *   removing one leaves the cache alone). A `tool_reference` to one inside a tool_result expands
 *   the definition there, so the tool_result block carries the definition's tokens and bytes.
 * - The cache key at block i hashes everything up to and including block i (and the model).
 * - Lookup: from each breakpoint, walk back up to `lookbackBlocks` blocks (the breakpoint itself
 *   included) for a key some earlier request wrote; the longest hit is read.
 * - Writes happen only at this request's breakpoints past the cached part, and only for prefixes
 *   of at least `minCacheableTokens`; the uncached part up to the last such breakpoint is
 *   "creation", split by the TTL of the breakpoint that covers it; the rest is input_tokens.
 * - Entries become readable once the answering response begins (commit()), so two requests in
 *   flight together do not share a fresh write.
 * TTL expiry is not simulated: tests are far shorter than five minutes.
 */
import type { CacheStats, Json, JsonObject } from "./types.ts";

export interface CacheOptions {
  /** Shorter prefixes are silently not cached (both cache fields 0). Default 0. */
  minCacheableTokens?: number;
  /** How far the lookup walks back from a breakpoint, in blocks. Default 20, as the API. */
  lookbackBlocks?: number;
}

type Ttl = "5m" | "1h";

interface PromptBlock {
  tokens: number;
  breakpoint: Ttl | null;
}

interface PromptLayout {
  blocks: PromptBlock[];
  /** keys[i]: hash of the model and blocks 0..i. */
  keys: string[];
  /** A top-level cache_control (automatic caching): one slot, placed on the last block. */
  automatic: Ttl | null;
}

const utf8 = new TextEncoder();

export const tokensOfText = (text: string): number => Math.ceil(utf8.encode(text).length / 4);

/** JSON with sorted keys and every cache_control dropped: equal content, equal bytes. */
export function canonicalJson(value: Json | undefined): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value)
    .filter((key) => key !== "cache_control")
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function ttlOf(block: Json | undefined): Ttl | null {
  if (!isObject(block)) return null;
  const control = block.cache_control;
  if (!isObject(control)) return null;
  return control.ttl === "1h" ? "1h" : "5m";
}

/** A breakpoint inside a tool_result's content marks the tool_result block itself. */
function nestedTtl(block: Json | undefined): Ttl | null {
  const own = ttlOf(block);
  if (own || !isObject(block) || !Array.isArray(block.content)) return own;
  for (const inner of block.content) {
    const ttl = ttlOf(inner);
    if (ttl) return ttl;
  }
  return null;
}

/** The definitions a tool_result's tool_reference blocks load, as the API inlines them; "" when none. */
function expandedReferences(block: Json | undefined, deferred: ReadonlyMap<string, string>): string {
  if (deferred.size === 0 || !isObject(block) || block.type !== "tool_result" || !Array.isArray(block.content)) return "";
  let text = "";
  for (const inner of block.content) {
    const definition = isObject(inner) && inner.type === "tool_reference" && typeof inner.tool_name === "string" ? deferred.get(inner.tool_name) : undefined;
    if (definition !== undefined) text += `\u001e${definition}`;
  }
  return text;
}

function layout(body: JsonObject): PromptLayout {
  const entries: { text: string; tokens: number; breakpoint: Ttl | null }[] = [];
  const add = (text: string, breakpoint: Ttl | null, weighted = true): void => {
    entries.push({ text, tokens: weighted ? tokensOfText(text) : 0, breakpoint });
  };
  const deferred = new Map<string, string>();
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      if (isObject(tool) && tool.defer_loading === true && typeof tool.name === "string") deferred.set(tool.name, canonicalJson(tool));
      else add(`tool:${canonicalJson(tool)}`, ttlOf(tool));
    }
  }
  if (typeof body.system === "string") add(`system:${canonicalJson({ type: "text", text: body.system })}`, null);
  else if (Array.isArray(body.system)) for (const block of body.system) add(`system:${canonicalJson(block)}`, ttlOf(block));
  // Not billed as tokens, but part of the key: these settings invalidate the messages' cache.
  add(`config:${canonicalJson({ thinking: body.thinking ?? null, tool_choice: body.tool_choice ?? null })}`, null, false);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isObject(message)) continue;
      const role = String(message.role);
      const content = message.content;
      const blocks: Json[] = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
      blocks.forEach((block, index) =>
        add(`${index === 0 ? "turn:" : ""}${role}:${canonicalJson(block)}${expandedReferences(block, deferred)}`, nestedTtl(block)),
      );
    }
  }
  const keys: string[] = [];
  let previous = `model:${typeof body.model === "string" ? body.model : ""}`;
  for (const entry of entries) {
    previous = new Bun.CryptoHasher("sha256").update(previous).update("\u001f").update(entry.text).digest("hex");
    keys.push(previous);
  }
  const automatic = isObject(body.cache_control) ? (body.cache_control.ttl === "1h" ? "1h" : "5m") : null;
  return { blocks: entries.map(({ tokens, breakpoint }) => ({ tokens, breakpoint })), keys, automatic };
}

/** The deterministic token estimate of a request's whole prompt (what count_tokens answers). */
export function estimateInputTokens(body: JsonObject): number {
  return layout(body).blocks.reduce((sum, block) => sum + block.tokens, 0);
}

export interface CacheVerdict {
  stats: CacheStats;
  /** Makes this request's writes readable by later requests. Idempotent. */
  commit(): void;
}

export class PromptCache {
  readonly #written = new Set<string>();
  readonly #minTokens: number;
  readonly #lookback: number;

  constructor(options: CacheOptions = {}) {
    this.#minTokens = options.minCacheableTokens ?? 0;
    this.#lookback = Math.max(1, options.lookbackBlocks ?? 20);
  }

  evaluate(body: JsonObject): CacheVerdict {
    const { blocks, keys, automatic } = layout(body);
    const breakpoints: { index: number; ttl: Ttl }[] = [];
    blocks.forEach((block, index) => {
      if (block.breakpoint) breakpoints.push({ index, ttl: block.breakpoint });
    });
    if (automatic && blocks.length > 0) breakpoints.push({ index: blocks.length - 1, ttl: automatic });
    breakpoints.sort((a, b) => a.index - b.index);

    const prefix: number[] = [];
    let running = 0;
    for (const block of blocks) {
      running += block.tokens;
      prefix.push(running);
    }
    const tokensThrough = (index: number): number => (index < 0 ? 0 : (prefix[index] ?? 0));
    const cacheable = (index: number): boolean => tokensThrough(index) > 0 && tokensThrough(index) >= this.#minTokens;

    let readEnd = -1;
    for (const { index } of breakpoints) {
      for (let at = index; at >= 0 && at > index - this.#lookback; at--) {
        const key = keys[at];
        if (at > readEnd && key !== undefined && this.#written.has(key) && cacheable(at)) {
          readEnd = at;
          break;
        }
      }
    }

    const writes: string[] = [];
    let covered = readEnd;
    let creation5m = 0;
    let creation1h = 0;
    for (const { index, ttl } of breakpoints) {
      if (index <= covered || !cacheable(index)) continue;
      const tokens = tokensThrough(index) - tokensThrough(covered);
      if (ttl === "1h") creation1h += tokens;
      else creation5m += tokens;
      covered = index;
      const key = keys[index];
      if (key !== undefined) writes.push(key);
    }

    const totalTokens = tokensThrough(blocks.length - 1);
    const read = tokensThrough(readEnd);
    const creation = creation5m + creation1h;
    return {
      stats: {
        totalTokens,
        inputTokens: totalTokens - read - creation,
        cacheReadInputTokens: read,
        cacheCreationInputTokens: creation,
        ephemeral5mInputTokens: creation5m,
        ephemeral1hInputTokens: creation1h,
        breakpoints: breakpoints.length,
      },
      commit: () => {
        for (const key of writes) this.#written.add(key);
      },
    };
  }
}
