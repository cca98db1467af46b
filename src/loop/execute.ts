/**
 * The fixed pipeline every tool call goes through, whatever its origin:
 * lookup → validate → PreToolUse hooks → permission gate → run (with timeout and abort) →
 * truncate → PostToolUse hooks. Everything that can go wrong becomes an `is_error` tool_result
 * the model can act on.
 */
import type { z } from "zod";
import type { ContentBlockParam, ToolResultBlockParam } from "../model/types.ts";
import type { HookRunner } from "../hooks/outcomes.ts";
import type { Gate } from "../permissions/types.ts";
import type { AnyTool, ToolOutput, ToolSession } from "../tools/types.ts";
import { ClewError, errorMessage } from "../util/errors.ts";
import { boundStrings } from "../util/bound-strings.ts";
import { truncateMiddle } from "../util/truncate.ts";
import type { Emit, PermissionDenial } from "./events.ts";
import { postToolUse, preToolUse, type HookExtras } from "./tool-hooks.ts";

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ExecutorOptions {
  tools: readonly AnyTool[];
  gate: Gate;
  session: ToolSession;
  /** Upper bound for any single call; tools with their own timeouts (Bash) stay below it. */
  toolTimeoutMs: number;
  /** Characters of text a tool result may carry to the model. */
  maxResultChars: number;
  /** Saves an over-long result in full and returns where, so the model can page through it. */
  spill?: (toolUseId: string, text: string) => string | undefined;
  hooks?: HookRunner;
}

export interface CallResult {
  block: ToolResultBlockParam;
  denial?: PermissionDenial;
  /** Structured output for transcripts and stream-json (`toolUseResult`). */
  data?: unknown;
  /** Context hooks added for the model, sent after the results of the reply. */
  context?: string[];
  /** A hook ended the agent's work (`continue: false`): the reason, for the user. */
  stop?: string;
}

function formatIssues(toolName: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "(input)";
    return `- ${where}: ${issue.message}`;
  });
  return `InputValidationError: ${toolName} was called with invalid input:\n${lines.join("\n")}\nFix the input to match the tool's schema and call it again.`;
}

function errorResult(id: string, message: string): ToolResultBlockParam {
  return { type: "tool_result", tool_use_id: id, content: message, is_error: true };
}

function withTimeout(signal: AbortSignal, ms: number): { signal: AbortSignal; timedOut: () => boolean } {
  const timeout = AbortSignal.timeout(ms);
  return { signal: AbortSignal.any([signal, timeout]), timedOut: () => timeout.aborted && !signal.aborted };
}

export class ToolExecutor {
  private byName: Map<string, AnyTool>;

  constructor(private readonly options: ExecutorOptions) {
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  }

  /** Between turns: MCP servers connected, died or changed their lists. */
  setTools(tools: readonly AnyTool[]): void {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  get tools(): AnyTool[] {
    return [...this.byName.values()];
  }

  tool(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  async execute(call: ToolCall, signal: AbortSignal, emit: Emit): Promise<CallResult> {
    emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
    const extras: HookExtras = { context: [] };
    const result = await this.resolve(call, signal, emit, extras);
    const content = result.block.content ?? "";
    emit({
      type: "tool_end",
      id: call.id,
      name: call.name,
      isError: result.block.is_error === true,
      content: content as string | ContentBlockParam[],
      display: result.display,
      data: result.data,
    });
    if (extras.context.length > 0) result.context = extras.context;
    if (extras.stop !== undefined) result.stop = extras.stop;
    return result;
  }

  private async resolve(
    call: ToolCall,
    signal: AbortSignal,
    emit: Emit,
    extras: HookExtras,
  ): Promise<CallResult & { display?: ToolOutput["display"] }> {
    const tool = this.byName.get(call.name);
    if (!tool) {
      const names = [...this.byName.keys()].join(", ");
      return { block: errorResult(call.id, `Error: No such tool available: ${call.name}. Available tools: ${names}.`) };
    }
    const parsed = tool.input.safeParse(call.input);
    if (!parsed.success) return { block: errorResult(call.id, formatIssues(tool.name, parsed.error)) };
    let input: unknown = parsed.data;
    let givenInput: unknown = call.input;
    const { session, hooks } = this.options;
    const deny = (reason: string): CallResult => {
      emit({ type: "permission_denied", id: call.id, name: tool.name, input: givenInput, reason });
      return { block: errorResult(call.id, reason), denial: { tool_name: tool.name, tool_use_id: call.id, tool_input: givenInput, reason }, data: `Error: ${reason}` };
    };
    const pre = await preToolUse(hooks, { id: call.id, name: tool.name, input: call.input }, extras, signal);
    if (pre.kind === "deny") return deny(pre.reason);
    if (pre.updatedInput) {
      // A hook's rewrite is checked like the model's own input, and then gated like it.
      const again = tool.input.safeParse(pre.updatedInput);
      if (!again.success) return { block: errorResult(call.id, `A PreToolUse hook rewrote this call's input into something invalid.\n${formatIssues(tool.name, again.error)}`) };
      input = again.data;
      givenInput = pre.updatedInput;
    }
    const decision = await this.options.gate.check({
      toolName: tool.name,
      access: tool.access,
      subject: tool.subject(input, session),
      input,
      toolUseId: call.id,
      ...(tool.origin?.requiresUserInteraction ? { requiresUserInteraction: true } : {}),
      ...(pre.decision ? { hookDecision: pre.decision } : {}),
      ...(pre.reason ? { hookReason: pre.reason } : {}),
    });
    if (decision.behavior === "deny") return deny(decision.reason);
    if (signal.aborted) return { block: errorResult(call.id, "Interrupted by user before the tool ran.") };
    const limit = withTimeout(signal, this.options.toolTimeoutMs);
    const started = performance.now();
    let result: CallResult & { display?: ToolOutput["display"] };
    try {
      const output = await tool.run(input, { toolUseId: call.id, signal: limit.signal, session });
      const block = this.toResult(call.id, output);
      if (output.isError || limit.signal.aborted) block.is_error = true;
      const data = output.data === undefined ? undefined : boundStrings(output.data, this.options.maxResultChars);
      result = { block, display: output.display, data };
    } catch (thrown) {
      if (limit.timedOut()) {
        result = { block: errorResult(call.id, `${tool.name} timed out after ${Math.round(this.options.toolTimeoutMs / 1000)}s.`) };
      } else if (signal.aborted) return { block: errorResult(call.id, "Interrupted by user.") };
      else {
        const message = thrown instanceof ClewError ? thrown.message : `${tool.name} failed: ${errorMessage(thrown)}`;
        result = { block: errorResult(call.id, message), data: `Error: ${message}` };
      }
    }
    const text = typeof result.block.content === "string" ? result.block.content : "";
    const outcome = { failed: result.block.is_error === true, text, response: result.data ?? result.block.content, durationMs: performance.now() - started };
    await postToolUse(hooks, { id: call.id, name: tool.name, input: givenInput }, outcome, extras, signal);
    return result;
  }

  private toResult(id: string, output: ToolOutput): ToolResultBlockParam {
    if (typeof output.content !== "string") {
      return { type: "tool_result", tool_use_id: id, content: output.content };
    }
    const text = output.content === "" ? "(no output)" : output.content;
    if (text.length <= this.options.maxResultChars) return { type: "tool_result", tool_use_id: id, content: text };
    const savedAt = this.options.spill?.(id, text);
    const note = savedAt ? `; the full output is saved at ${savedAt} — Read it with offset/limit or Grep it` : "";
    return { type: "tool_result", tool_use_id: id, content: truncateMiddle(text, this.options.maxResultChars, note) };
  }
}
