/**
 * Reading a recorded request, for assertions and for dynamic script steps that answer based on
 * what the client sent (e.g. the tool_result content).
 */
import type { Json, JsonObject, RecordedRequest } from "./types.ts";

export interface SentToolResult {
  toolUseId: string;
  /** The result's text: a string content as is, text blocks joined with "\n". */
  text: string;
  isError: boolean;
  block: JsonObject;
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The request's messages, each with its content as an array of blocks. */
export function messagesOf(request: RecordedRequest): { role: string; content: JsonObject[] }[] {
  const messages = request.body.messages;
  if (!Array.isArray(messages)) return [];
  return messages.filter(isObject).map((message) => ({
    role: typeof message.role === "string" ? message.role : "",
    content:
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : Array.isArray(message.content)
          ? message.content.filter(isObject)
          : [],
  }));
}

function lastUserContent(request: RecordedRequest): JsonObject[] {
  const user = messagesOf(request).filter((message) => message.role === "user");
  return user[user.length - 1]?.content ?? [];
}

export function textOf(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObject)
    .flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : []))
    .join("\n");
}

/** The tool_result blocks of the last user message. */
export function toolResults(request: RecordedRequest): SentToolResult[] {
  return lastUserContent(request).flatMap((block) =>
    block.type === "tool_result"
      ? [
          {
            toolUseId: typeof block.tool_use_id === "string" ? block.tool_use_id : "",
            text: textOf(block.content),
            isError: block.is_error === true,
            block,
          },
        ]
      : [],
  );
}

const isReminder = (block: JsonObject): boolean => typeof block.text === "string" && block.text.startsWith("<system-reminder>");

/** The text of the last user message (tool_result blocks and client reminders left out). */
export function lastUserText(request: RecordedRequest): string {
  return textOf(lastUserContent(request).filter((block) => block.type === "text" && !isReminder(block)));
}

/** The client's <system-reminder> texts in the last user message. */
export function lastUserReminders(request: RecordedRequest): string[] {
  return lastUserContent(request).flatMap((block) => (block.type === "text" && isReminder(block) ? [String(block.text)] : []));
}

/** The names in request.tools, in order. */
export function toolNames(request: RecordedRequest): string[] {
  const tools = request.body.tools;
  if (!Array.isArray(tools)) return [];
  return tools.filter(isObject).flatMap((tool) => (typeof tool.name === "string" ? [tool.name] : []));
}

/** The names in request.tools sent with `defer_loading: true`, in order. */
export function deferredToolNames(request: RecordedRequest): string[] {
  const tools = request.body.tools;
  if (!Array.isArray(tools)) return [];
  return tools.filter(isObject).flatMap((tool) => (tool.defer_loading === true && typeof tool.name === "string" ? [tool.name] : []));
}

/** The tools the last user message's tool_results load through `tool_reference` blocks. */
export function toolReferences(request: RecordedRequest): string[] {
  return toolResults(request).flatMap(({ block }) =>
    Array.isArray(block.content)
      ? block.content.filter(isObject).flatMap((inner) => (inner.type === "tool_reference" && typeof inner.tool_name === "string" ? [inner.tool_name] : []))
      : [],
  );
}
