/**
 * Maps loop events to Claude Code's stream-json frames: system/init first, one `assistant`
 * frame per completed content block, one `user` frame per tool result, `result` last.
 */
import type { SessionInfo } from "../app/session.ts";
import type { AgentEvent } from "../loop/events.ts";
import type { ContentBlockParam } from "../model/types.ts";
import { HEADLESS_COMMANDS } from "./headless-commands.ts";

export type Frame = Record<string, unknown> & { type: string };

export function initFrame(info: SessionInfo): Frame {
  return {
    type: "system",
    subtype: "init",
    cwd: info.cwd,
    session_id: info.sessionId,
    tools: info.tools,
    mcp_servers: info.mcpServers,
    ...(info.mcpServerErrors.length > 0 ? { mcp_server_errors: info.mcpServerErrors } : {}),
    model: info.model,
    permissionMode: info.permissionMode,
    slash_commands: [...HEADLESS_COMMANDS, ...info.commands],
    apiKeySource: info.apiKeySource,
    claude_code_version: info.version,
    clew_version: info.version,
    output_style: info.outputStyle,
    agents: info.agents,
    skills: info.skills,
    plugins: info.plugins,
    uuid: crypto.randomUUID(),
  };
}

export function framesFor(event: AgentEvent, info: SessionInfo, partial: boolean): Frame[] {
  const envelope = () => ({ parent_tool_use_id: null, session_id: info.sessionId, uuid: crypto.randomUUID() });
  switch (event.type) {
    case "request_start":
      return [{ type: "system", subtype: "status", status: "requesting", session_id: info.sessionId, uuid: crypto.randomUUID() }];
    case "raw_stream":
      return partial ? [{ type: "stream_event", event: event.event, ...envelope() }] : [];
    case "api_retry":
      return [
        {
          type: "system",
          subtype: "api_retry",
          attempt: event.attempt,
          max_retries: event.maxRetries,
          retry_delay_ms: event.delayMs,
          error_status: event.status,
          error: event.category,
          session_id: info.sessionId,
          uuid: crypto.randomUUID(),
        },
      ];
    case "assistant_message": {
      const { message } = event;
      const usage = {
        input_tokens: message.usage.inputTokens,
        output_tokens: message.usage.outputTokens,
        cache_read_input_tokens: message.usage.cacheReadInputTokens,
        cache_creation_input_tokens: message.usage.cacheCreationInputTokens,
      };
      return message.content.map((block) => ({
        type: "assistant",
        message: { id: message.id, type: "message", role: "assistant", model: message.model, content: [block], stop_reason: null, stop_sequence: null, usage },
        ...envelope(),
      }));
    }
    case "tool_results":
      return (event.message.content as ContentBlockParam[]).flatMap((block) =>
        block.type === "tool_result"
          ? [
              {
                type: "user",
                message: { role: "user", content: [block] },
                ...(event.data[block.tool_use_id] === undefined ? {} : { tool_use_result: event.data[block.tool_use_id] }),
                ...envelope(),
              },
            ]
          : [],
      );
    case "compact_boundary":
      return [
        {
          type: "system",
          subtype: "compact_boundary",
          compact_metadata: { trigger: event.trigger, pre_tokens: event.preTokens },
          session_id: info.sessionId,
          uuid: crypto.randomUUID(),
        },
      ];
    case "status":
      return [{ type: "system", subtype: "status", status: event.status, session_id: info.sessionId, uuid: crypto.randomUUID() }];
    case "permission_denied":
      return [
        {
          type: "system",
          subtype: "permission_denied",
          tool_name: event.name,
          tool_use_id: event.id,
          message: event.reason,
          session_id: info.sessionId,
          uuid: crypto.randomUUID(),
        },
      ];
    case "subagent":
      // A helper's messages, tagged with the Agent call that started it (Claude Code's sidechain frames).
      if (event.event.type !== "assistant_message" && event.event.type !== "tool_results") return [];
      return framesFor(event.event, info, false).map((frame) => ({ ...frame, parent_tool_use_id: event.parentToolUseId }));
    case "hook_started":
    case "hook_response":
      return [{ type: "system", ...event.frame, session_id: info.sessionId, uuid: crypto.randomUUID() }];
    default:
      return [];
  }
}
