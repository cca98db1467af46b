/**
 * Rebuilds the model-facing conversation from transcript records: start at the newest
 * conversation record, follow parentUuid back to the root, then fold records into messages
 * (an API reply is stored one content block per record, sharing `message.id`).
 */
import type { ContentBlockParam, MessageParam } from "../model/types.ts";
import type { TranscriptRecord } from "./transcript.ts";

interface StoredMessage {
  role?: unknown;
  id?: unknown;
  content?: unknown;
}

function isConversation(record: TranscriptRecord): boolean {
  return (record.type === "user" || record.type === "assistant") && typeof record.uuid === "string";
}

/** The records on the chain ending at the newest conversation record, oldest first. */
export function activeChain(records: readonly TranscriptRecord[]): TranscriptRecord[] {
  const byUuid = new Map<string, TranscriptRecord>();
  for (const record of records) if (typeof record.uuid === "string") byUuid.set(record.uuid, record);
  let leaf: TranscriptRecord | undefined;
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as TranscriptRecord;
    if (isConversation(record)) {
      leaf = record;
      break;
    }
  }
  const chain: TranscriptRecord[] = [];
  const seen = new Set<string>();
  for (let node = leaf; node && typeof node.uuid === "string" && !seen.has(node.uuid); ) {
    seen.add(node.uuid);
    chain.push(node);
    // The model's context starts at a compaction boundary.
    if (node.type === "system" && node.subtype === "compact_boundary") break;
    node = typeof node.parentUuid === "string" ? byUuid.get(node.parentUuid) : undefined;
  }
  return chain.reverse();
}

function contentBlocks(content: unknown): ContentBlockParam[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as ContentBlockParam[]) : [];
}

export function rebuildMessages(records: readonly TranscriptRecord[]): MessageParam[] {
  const messages: MessageParam[] = [];
  let lastAssistantId: unknown;
  for (const record of activeChain(records)) {
    if (!isConversation(record)) continue;
    const stored = (record.message ?? {}) as StoredMessage;
    const blocks = contentBlocks(stored.content);
    const last = messages[messages.length - 1];
    if (record.type === "assistant") {
      if (last && last.role === "assistant" && stored.id !== undefined && stored.id === lastAssistantId) {
        (last.content as ContentBlockParam[]).push(...blocks);
      } else {
        messages.push({ role: "assistant", content: [...blocks] });
      }
      lastAssistantId = stored.id;
    } else {
      if (last && last.role === "user") (last.content as ContentBlockParam[]).push(...blocks);
      else messages.push({ role: "user", content: [...blocks] });
      lastAssistantId = undefined;
    }
  }
  return messages;
}
