/**
 * Turns the loop's events into transcript records, as they happen. Records follow Claude
 * Code's shapes: an assistant reply is written one content block per record (sharing the
 * message id) and each tool result is its own user record carrying `toolUseResult`.
 */
import type { AgentEvent, Emit } from "../loop/events.ts";
import type { ContentBlockParam, MessageParam } from "../model/types.ts";
import type { TranscriptWriter } from "../store/transcript.ts";

export function createRecorder(writer: TranscriptWriter, now: () => Date): Emit {
  return (event: AgentEvent) => {
    switch (event.type) {
      case "turn_start":
        writer.appendChained({ type: "user", message: event.message }, now());
        return;
      case "assistant_message": {
        const { message } = event;
        for (const block of message.content) {
          writer.appendChained(
            {
              type: "assistant",
              message: {
                id: message.id,
                type: "message",
                role: "assistant",
                model: message.model,
                content: [block],
                stop_reason: message.stopReason,
                stop_sequence: null,
                usage: {
                  input_tokens: message.usage.inputTokens,
                  output_tokens: message.usage.outputTokens,
                  cache_read_input_tokens: message.usage.cacheReadInputTokens,
                  cache_creation_input_tokens: message.usage.cacheCreationInputTokens,
                },
              },
            },
            now(),
          );
        }
        return;
      }
      case "tool_results": {
        const blocks = event.message.content as ContentBlockParam[];
        for (const block of blocks) {
          const toolUseResult = block.type === "tool_result" ? event.data[block.tool_use_id] : undefined;
          writer.appendChained(
            { type: "user", message: { role: "user", content: [block] }, ...(toolUseResult === undefined ? {} : { toolUseResult }) },
            now(),
          );
        }
        return;
      }
      case "reminder":
        writer.appendChained({ type: "user", isMeta: true, message: { role: "user", content: [{ type: "text", text: event.text }] } }, now());
        return;
      case "compact_boundary": {
        writer.appendBoundary(
          {
            type: "system",
            subtype: "compact_boundary",
            content: "Conversation compacted",
            level: "info",
            compactMetadata: { trigger: event.trigger, preTokens: event.preTokens },
          },
          now(),
        );
        event.messages.forEach((message, index) => recordMessage(writer, message, index === 0, `msg_compact_${index}`, now));
        return;
      }
      case "api_retry":
        writer.appendChained(
          {
            type: "system",
            subtype: "api_error",
            level: "error",
            error: { status: event.status, category: event.category, message: event.message },
            retryInMs: event.delayMs,
            retryAttempt: event.attempt,
            maxRetries: event.maxRetries,
          },
          now(),
        );
        return;
      case "turn_end":
        writer.appendMeta({ type: "turn-end", outcome: { ...event.outcome, finalText: undefined } });
        return;
      case "hook_response":
        // Outside the conversation chain: a record of what ran, never replayed to the model.
        writer.appendMeta({ type: "system", subtype: "hook", timestamp: now().toISOString(), ...event.record });
        return;
      default:
        return;
    }
  };
}

/** Writes a whole conversation into a fresh transcript (`--fork-session`). */
export function recordHistory(writer: TranscriptWriter, messages: readonly MessageParam[], now: () => Date): void {
  messages.forEach((message, index) => recordMessage(writer, message, false, `msg_fork_${index}`, now));
}

/** Re-records a kept message after a compaction boundary, one content block per record. */
function recordMessage(writer: TranscriptWriter, message: MessageParam, isSummary: boolean, id: string, now: () => Date): void {
  const blocks: ContentBlockParam[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  for (const block of blocks) {
    if (message.role === "assistant") {
      writer.appendChained({ type: "assistant", message: { id, type: "message", role: "assistant", content: [block] } }, now());
    } else {
      writer.appendChained({ type: "user", ...(isSummary ? { isCompactSummary: true } : {}), message: { role: "user", content: [block] } }, now());
    }
  }
}
