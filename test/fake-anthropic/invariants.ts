/**
 * The request rules the real API enforces (with a 400) or that clew promises to keep, checked
 * on every request the fake receives. Each finding is a readable sentence naming the place.
 */
import type { Json, JsonObject } from "./types.ts";

export interface InvariantOptions {
  /** count_tokens bodies carry no max_tokens. */
  endpoint?: "messages" | "count_tokens";
  /** The API's limit; a 5th breakpoint is a 400. */
  maxCacheBreakpoints?: number;
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const str = (value: Json | undefined): string | undefined => (typeof value === "string" ? value : undefined);

export function checkRequest(body: JsonObject, options: InvariantOptions = {}): string[] {
  const problems: string[] = [];
  const report = (message: string): void => {
    problems.push(message);
  };
  if (!str(body.model)) report("model must be a non-empty string");
  if (options.endpoint !== "count_tokens") {
    const maxTokens = body.max_tokens;
    if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens <= 0) {
      report(`max_tokens must be a positive integer, got ${JSON.stringify(maxTokens ?? null)}`);
    }
  }
  const tools = checkTools(body.tools, report);
  checkSystem(body.system, report);
  checkMessages(body.messages, tools, report);
  checkCacheControl(body, options.maxCacheBreakpoints ?? 4, report);
  return problems;
}

type Report = (message: string) => void;

interface ToolSet {
  names: Set<string>;
  /** Tools sent with `defer_loading: true`: a tool_reference may name only these. */
  deferred: Set<string>;
}

/**
 * Deferral rules, as the tool search documentation states them (the messages are the API's):
 * at least one tool must be non-deferred, and a deferred tool cannot carry cache_control.
 */
function checkTools(tools: Json | undefined, report: Report): ToolSet {
  const set: ToolSet = { names: new Set(), deferred: new Set() };
  const { names } = set;
  if (tools === undefined) return set;
  if (!Array.isArray(tools)) {
    report("tools must be an array");
    return set;
  }
  tools.forEach((tool, i) => {
    const where = `tools[${i}]`;
    if (!isObject(tool)) return report(`${where} must be an object`);
    const name = str(tool.name);
    if (!name) return report(`${where} has no name`);
    if (names.has(name)) report(`${where}: duplicate tool name "${name}"`);
    names.add(name);
    if (tool.defer_loading === true) {
      set.deferred.add(name);
      if (isObject(tool.cache_control)) {
        report(`Tool '${name}' cannot have both defer_loading=true and cache_control set. Tools with defer_loading cannot use prompt caching.`);
      }
    }
    // Server tools (web_search_…, bash_…) are typed and carry no input_schema.
    const serverTool = typeof tool.type === "string" && tool.type !== "custom";
    if (serverTool) return;
    if (!/^[a-zA-Z0-9_-]{1,128}$/.test(name)) report(`${where}: tool name "${name}" must match ^[a-zA-Z0-9_-]{1,128}$`);
    const schema = tool.input_schema;
    if (!isObject(schema)) return report(`${where} ("${name}"): input_schema must be an object`);
    if (schema.type !== "object") report(`${where} ("${name}"): input_schema.type must be "object", got ${JSON.stringify(schema.type ?? null)}`);
    if ("$schema" in schema) report(`${where} ("${name}"): input_schema must not carry a "$schema" key`);
  });
  if (set.deferred.size > 0 && set.deferred.size === tools.length) {
    report("All tools have defer_loading set. At least one tool must be non-deferred.");
  }
  return set;
}

function checkSystem(system: Json | undefined, report: Report): void {
  if (system === undefined || typeof system === "string") return;
  if (!Array.isArray(system)) return report("system must be a string or an array of text blocks");
  system.forEach((block, i) => {
    if (!isObject(block) || block.type !== "text") return report(`system[${i}] must be a text block`);
    checkText(block, `system[${i}]`, report);
  });
}

function checkText(block: JsonObject, where: string, report: Report): void {
  const text = block.text;
  if (typeof text !== "string") report(`${where}: text block without a string "text"`);
  else if (text === "") report(`${where}: empty text block`);
  else if (text.trim() === "") report(`${where}: text block with only whitespace`);
}

interface Turn {
  role: string;
  blocks: JsonObject[];
  where: string;
  /** Shape problems, reported in message order together with the block checks. */
  problems: string[];
}

function turnsOf(messages: Json | undefined, report: Report): Turn[] {
  if (!Array.isArray(messages)) {
    report("messages must be an array");
    return [];
  }
  if (messages.length === 0) report("messages must not be empty");
  return messages.map((message, i) => {
    const where = `messages[${i}]`;
    const turn: Turn = { role: "", blocks: [], where, problems: [] };
    if (!isObject(message)) {
      turn.problems.push(`${where} must be an object`);
      return turn;
    }
    turn.role = str(message.role) ?? "";
    if (turn.role !== "user" && turn.role !== "assistant") {
      turn.problems.push(`${where}: role must be "user" or "assistant", got ${JSON.stringify(message.role ?? null)}`);
    }
    const content = message.content;
    if (typeof content === "string") {
      if (content.trim() === "") turn.problems.push(`${where}: empty string content`);
      else turn.blocks = [{ type: "text", text: content }];
    } else if (Array.isArray(content)) {
      if (content.length === 0) turn.problems.push(`${where}: empty content array`);
      content.forEach((block, j) => {
        if (isObject(block)) turn.blocks.push(block);
        else turn.problems.push(`${where}.content[${j}] must be an object`);
      });
    } else {
      turn.problems.push(`${where}: content must be a string or an array of blocks`);
    }
    return turn;
  });
}

/**
 * Tool names in history need not be in `tools` (the API accepts calls to tools removed since, and
 * Claude Code relies on it); but history with tool blocks and no tools at all is a 400.
 */
function checkMessages(messages: Json | undefined, tools: ToolSet, report: Report): void {
  const toolsDefined = tools.names.size > 0;
  const turns = turnsOf(messages, report);
  const firstToolBlock = turns.flatMap((turn) =>
    turn.blocks.flatMap((block, j) => (block.type === "tool_use" || block.type === "tool_result" ? [`${turn.where}.content[${j}]`] : [])),
  )[0];
  if (firstToolBlock && !toolsDefined) {
    report(`${firstToolBlock}: requests which include tool_use or tool_result blocks must define tools`);
  }
  const seenToolUseIds = new Set<string>();
  turns.forEach((turn, i) => {
    const previous = turns[i - 1];
    turn.problems.forEach(report);
    if (i === 0 && turn.role === "assistant") report(`${turn.where}: the first message must be from the user, got "assistant"`);
    if (previous && previous.role === turn.role) {
      report(`${turn.where}: roles must alternate, but ${previous.where} is also "${turn.role}"`);
    }
    const asked = new Set<string>();
    if (previous?.role === "assistant") {
      for (const block of previous.blocks) if (block.type === "tool_use" && typeof block.id === "string") asked.add(block.id);
    }
    const answered = new Set<string>();
    let sawOther = false;
    turn.blocks.forEach((block, j) => {
      const where = `${turn.where}.content[${j}]`;
      switch (block.type) {
        case "text":
          checkText(block, where, report);
          break;
        case "tool_use":
          checkToolUse(block, where, turn.role, seenToolUseIds, report);
          break;
        case "thinking":
          if (turn.role !== "assistant") report(`${where}: thinking block in a ${turn.role} message`);
          if (!str(block.signature)) report(`${where}: thinking block sent back without its signature`);
          break;
        case "redacted_thinking":
          if (!str(block.data)) report(`${where}: redacted_thinking block without its data`);
          break;
        case "server_tool_use":
          checkServerToolUse(block, where, turn.role, seenToolUseIds, report);
          break;
        case "web_search_tool_result":
          checkWebSearchResult(block, where, turn, j, report);
          break;
        case "tool_result": {
          const id = str(block.tool_use_id) ?? "";
          if (turn.role !== "user") report(`${where}: tool_result in a ${turn.role} message`);
          if (!asked.has(id)) report(`${where}: tool_result for "${id}" has no matching tool_use in the previous assistant message`);
          if (answered.has(id)) report(`${where}: second tool_result for "${id}"`);
          if (sawOther) report(`${where}: tool_result for "${id}" comes after other content; tool_result blocks must come first`);
          answered.add(id);
          checkToolResultContent(block.content, where, tools, report);
          return;
        }
      }
      sawOther = true;
    });
    if (turn.role === "assistant") {
      const next = turns[i + 1];
      const ids = turn.blocks.flatMap((b) => (b.type === "tool_use" && typeof b.id === "string" ? [b.id] : []));
      const results = new Set(
        next?.role === "user" ? next.blocks.flatMap((b) => (b.type === "tool_result" ? [str(b.tool_use_id) ?? ""] : [])) : [],
      );
      for (const id of ids) {
        if (!results.has(id)) {
          report(`${turn.where}: tool_use "${id}" is not answered by a tool_result in the next user message`);
        }
      }
      // A server call's result sits in the same message; only the last message (a paused turn being
      // continued) may end with a call whose result has not come yet.
      if (next) {
        const answeredHere = new Set(turn.blocks.flatMap((b) => (b.type === "web_search_tool_result" ? [str(b.tool_use_id) ?? ""] : [])));
        for (const block of turn.blocks) {
          const id = str(block.id) ?? "";
          if (block.type === "server_tool_use" && !answeredHere.has(id)) {
            report(`${turn.where}: server_tool_use "${id}" has no web_search_tool_result after it in the same message`);
          }
        }
      }
    }
  });
}

function checkToolUse(
  block: JsonObject,
  where: string,
  role: string,
  seen: Set<string>,
  report: Report,
): void {
  const id = str(block.id) ?? "";
  if (!str(block.name)) report(`${where}: tool_use without a name`);
  if (role !== "assistant") report(`${where}: tool_use in a ${role} message`);
  if (!id) report(`${where}: tool_use without an id`);
  else if (seen.has(id)) report(`${where}: duplicate tool_use id "${id}"`);
  seen.add(id);
  if (!isObject(block.input)) report(`${where}: tool_use "${id}" input must be an object`);
}

function checkServerToolUse(block: JsonObject, where: string, role: string, seen: Set<string>, report: Report): void {
  const id = str(block.id) ?? "";
  if (role !== "assistant") report(`${where}: server_tool_use in a ${role} message`);
  if (!/^srvtoolu_[a-zA-Z0-9_]+$/.test(id)) report(`${where}: server_tool_use id must start with "srvtoolu_", got ${JSON.stringify(block.id ?? null)}`);
  else if (seen.has(id)) report(`${where}: duplicate tool_use id "${id}"`);
  seen.add(id);
  if (!str(block.name)) report(`${where}: server_tool_use without a name`);
  if (!isObject(block.input)) report(`${where}: server_tool_use "${id}" input must be an object`);
}

/**
 * A search result goes back exactly as it came: in the assistant message, after its call, each
 * hit with the opaque encrypted_content the API needs for citations (or the error object).
 */
function checkWebSearchResult(block: JsonObject, where: string, turn: Turn, index: number, report: Report): void {
  const id = str(block.tool_use_id) ?? "";
  if (turn.role !== "assistant") report(`${where}: web_search_tool_result in a ${turn.role} message`);
  const called = turn.blocks.slice(0, index).some((b) => b.type === "server_tool_use" && b.id === id);
  if (!called) report(`${where}: web_search_tool_result for "${id}" has no matching server_tool_use before it in the same message`);
  const content = block.content;
  if (isObject(content)) {
    if (content.type !== "web_search_tool_result_error" || !str(content.error_code)) report(`${where}: web_search_tool_result content must be a list of results or a web_search_tool_result_error`);
    return;
  }
  if (!Array.isArray(content)) return report(`${where}: web_search_tool_result content must be a list of results or a web_search_tool_result_error`);
  content.forEach((hit, k) => {
    const at = `${where}.content[${k}]`;
    if (!isObject(hit) || hit.type !== "web_search_result") return report(`${at}: expected a web_search_result`);
    for (const field of ["url", "title", "encrypted_content"]) {
      if (typeof hit[field] !== "string") report(`${at}: web_search_result without its ${field}`);
    }
  });
}

function checkToolResultContent(content: Json | undefined, where: string, tools: ToolSet, report: Report): void {
  if (content === undefined || typeof content === "string") return;
  if (!Array.isArray(content)) return report(`${where}: tool_result content must be a string or an array of blocks`);
  content.forEach((inner, k) => {
    if (isObject(inner) && inner.type === "text") checkText(inner, `${where}.content[${k}]`, report);
    if (isObject(inner) && inner.type === "tool_reference") checkToolReference(inner, `${where}.content[${k}]`, tools, report);
  });
}

/**
 * A tool_reference (a client-side tool search's answer) expands into the named definition, which
 * must be in tools[] with defer_loading: true. The documented 400 is for a name not in tools[];
 * for a tool that is there but not deferred the docs state the rule without quoting an error, so
 * this message is the fake's own.
 */
function checkToolReference(block: JsonObject, where: string, tools: ToolSet, report: Report): void {
  const name = str(block.tool_name);
  if (name === undefined) return report(`${where}: tool_reference without a string "tool_name"`);
  if (!tools.names.has(name)) return report(`Tool reference '${name}' has no corresponding tool definition`);
  if (!tools.deferred.has(name)) report(`${where}: tool_reference '${name}' names a tool without defer_loading: true; only deferred tools can be referenced`);
}

function checkCacheControl(body: JsonObject, limit: number, report: Report): void {
  const points: { where: string; ttl: string }[] = [];
  const visit = (value: Json | undefined, where: string): void => {
    if (!isObject(value)) return;
    const control = value.cache_control;
    if (isObject(control)) {
      points.push({ where, ttl: control.ttl === "1h" ? "1h" : "5m" });
      if (value.type === "thinking" || value.type === "redacted_thinking") {
        report(`${where}: thinking blocks cannot carry cache_control`);
      }
    }
  };
  if (Array.isArray(body.tools)) body.tools.forEach((tool, i) => visit(tool, `tools[${i}]`));
  if (Array.isArray(body.system)) body.system.forEach((block, i) => visit(block, `system[${i}]`));
  if (Array.isArray(body.messages)) {
    body.messages.forEach((message, i) => {
      if (!isObject(message) || !Array.isArray(message.content)) return;
      message.content.forEach((block, j) => {
        const where = `messages[${i}].content[${j}]`;
        visit(block, where);
        if (isObject(block) && Array.isArray(block.content)) {
          block.content.forEach((inner, k) => visit(inner, `${where}.content[${k}]`));
        }
      });
    });
  }
  visit(body, "cache_control (top level)");
  if (points.length > limit) {
    report(`${points.length} cache_control breakpoints (at most ${limit}): ${points.map((p) => p.where).join(", ")}`);
  }
  const firstShort = points.findIndex((p) => p.ttl === "5m");
  const lateLong = points.findIndex((p, i) => p.ttl === "1h" && firstShort !== -1 && i > firstShort);
  if (lateLong !== -1) {
    report(`${points[lateLong]?.where}: a 1h cache_control must not follow a 5m one`);
  }
}
