/**
 * Standard input of `--input-format stream-json`: one JSON object a line — user messages, control
 * requests and the caller's answers to ours. Each line becomes one typed item, or an `invalid`
 * item naming the line and what is wrong with it, so one bad line never ends the session.
 */
import type { ContentBlockParam } from "../../model/types.ts";
import { lazySchema } from "../../util/lazy-schema.ts";

export type ControlRequestBody = Record<string, unknown> & { subtype: string };

export type ControlResponseBody =
  | { subtype: "success"; request_id: string; response?: Record<string, unknown> }
  | { subtype: "error"; request_id: string; error: string };

export type InboundItem =
  | { kind: "user"; line: number; content: string | ContentBlockParam[]; uuid?: string; sessionId?: string }
  | { kind: "control_request"; line: number; requestId: string; request: ControlRequestBody }
  | { kind: "control_response"; line: number; response: ControlResponseBody }
  | { kind: "control_cancel_request"; line: number; requestId: string }
  | { kind: "keep_alive"; line: number }
  | { kind: "invalid"; line: number; message: string };

const blockSchema = lazySchema((z) =>
  z.union([
    z.looseObject({ type: z.literal("text"), text: z.string() }),
    z.looseObject({ type: z.literal("image"), source: z.looseObject({ type: z.string() }) }),
    z.looseObject({ type: z.literal("document"), source: z.looseObject({ type: z.string() }) }),
    z.looseObject({ type: z.literal("tool_result"), tool_use_id: z.string() }),
  ]),
);

const userSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal("user"),
    message: z.looseObject({ role: z.literal("user"), content: z.union([z.string(), z.array(z.unknown())]) }),
    uuid: z.union([z.string(), z.unknown()]).optional(),
    session_id: z.union([z.string(), z.unknown()]).optional(),
  }),
);

const controlRequestSchema = lazySchema((z) =>
  z.looseObject({ type: z.literal("control_request"), request_id: z.string(), request: z.looseObject({ subtype: z.string() }) }),
);

const controlResponseSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal("control_response"),
    response: z.union([
      z.looseObject({ subtype: z.literal("success"), request_id: z.string(), response: z.record(z.string(), z.unknown()).optional() }),
      z.looseObject({ subtype: z.literal("error"), request_id: z.string(), error: z.string() }),
    ]),
  }),
);

const KNOWN_TYPES = ["user", "control_request", "control_response", "control_cancel_request", "keep_alive"];

function issueText(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): string {
  const first = error.issues[0];
  if (!first) return "it does not have the expected shape";
  const path = first.path.map(String).join(".");
  return path === "" ? first.message : `${path}: ${first.message}`;
}

/** The content of a user message: a string, or content blocks each of a kind the API accepts. */
function userContent(content: string | unknown[]): { ok: true; content: string | ContentBlockParam[] } | { ok: false; message: string } {
  if (typeof content === "string") {
    return content.trim() === "" ? { ok: false, message: "message.content is empty" } : { ok: true, content };
  }
  if (content.length === 0) return { ok: false, message: "message.content has no blocks" };
  const blocks: ContentBlockParam[] = [];
  for (const [index, block] of content.entries()) {
    const parsed = blockSchema().safeParse(block);
    if (!parsed.success) {
      const type = typeof block === "object" && block !== null && "type" in block ? String((block as { type: unknown }).type) : typeof block;
      return { ok: false, message: `message.content[${index}] (${type}) is not a text, image, document or tool_result block with its required fields` };
    }
    blocks.push(parsed.data as unknown as ContentBlockParam);
  }
  return { ok: true, content: blocks };
}

/** One line of input, numbered from 1. Blank lines are not items. */
export function parseInputLine(text: string, line: number): InboundItem | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: "invalid", line, message: `line ${line} of standard input is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", line, message: `line ${line} of standard input is not a JSON object` };
  }
  const type = (value as { type?: unknown }).type;
  const invalid = (why: string): InboundItem => ({ kind: "invalid", line, message: `line ${line} of standard input (${String(type)}): ${why}` });
  switch (type) {
    case "user": {
      const parsed = userSchema().safeParse(value);
      if (!parsed.success) return invalid(issueText(parsed.error));
      const content = userContent(parsed.data.message.content);
      if (!content.ok) return invalid(content.message);
      const { uuid, session_id: sessionId } = parsed.data;
      return {
        kind: "user",
        line,
        content: content.content,
        ...(typeof uuid === "string" ? { uuid } : {}),
        ...(typeof sessionId === "string" && sessionId !== "" ? { sessionId } : {}),
      };
    }
    case "control_request": {
      const parsed = controlRequestSchema().safeParse(value);
      if (!parsed.success) return invalid(issueText(parsed.error));
      return { kind: "control_request", line, requestId: parsed.data.request_id, request: parsed.data.request as ControlRequestBody };
    }
    case "control_response": {
      const parsed = controlResponseSchema().safeParse(value);
      if (!parsed.success) return invalid(issueText(parsed.error));
      return { kind: "control_response", line, response: parsed.data.response as ControlResponseBody };
    }
    case "control_cancel_request": {
      const id = (value as { request_id?: unknown }).request_id;
      return typeof id === "string" ? { kind: "control_cancel_request", line, requestId: id } : invalid("request_id is missing");
    }
    case "keep_alive":
      return { kind: "keep_alive", line };
    default:
      return {
        kind: "invalid",
        line,
        message: `line ${line} of standard input has ${type === undefined ? "no type" : `unknown type ${JSON.stringify(type)}`}; expected one of ${KNOWN_TYPES.join(", ")}`,
      };
  }
}

/** Splits a byte stream into lines (a last line without a newline counts) and parses each one. */
export async function* readInputItems(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<InboundItem> {
  const decoder = new TextDecoder();
  let pending = "";
  let line = 0;
  for await (const chunk of chunks) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const text = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      line += 1;
      const item = parseInputLine(text, line);
      if (item) yield item;
      newline = pending.indexOf("\n");
    }
  }
  pending += decoder.decode();
  if (pending !== "") {
    const item = parseInputLine(pending, line + 1);
    if (item) yield item;
  }
}
