/**
 * The fixed pipeline every tool call goes through, whatever its origin:
 * lookup → validate → permission gate → run (with timeout and abort) → truncate.
 * Everything that can go wrong becomes an `is_error` tool_result the model can act on.
 */
import type { z } from "zod";
import type { ContentBlockParam, ToolResultBlockParam } from "../model/types.ts";
import type { Gate } from "../permissions/types.ts";
import type { AnyTool, ToolOutput, ToolSession } from "../tools/types.ts";
import { ClewError, errorMessage } from "../util/errors.ts";
import { boundStrings } from "../util/bound-strings.ts";
import { truncateMiddle } from "../util/truncate.ts";
import type { Emit, PermissionDenial } from "./events.ts";

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
}

export interface CallResult {
  block: ToolResultBlockParam;
  denial?: PermissionDenial;
  /** Structured output for transcripts and stream-json (`toolUseResult`). */
  data?: unknown;
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
  private readonly byName: Map<string, AnyTool>;

  constructor(private readonly options: ExecutorOptions) {
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  }

  tool(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  async execute(call: ToolCall, signal: AbortSignal, emit: Emit): Promise<CallResult> {
    emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
    const result = await this.resolve(call, signal, emit);
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
    return result;
  }

  private async resolve(
    call: ToolCall,
    signal: AbortSignal,
    emit: Emit,
  ): Promise<CallResult & { display?: ToolOutput["display"] }> {
    const tool = this.byName.get(call.name);
    if (!tool) {
      const names = [...this.byName.keys()].join(", ");
      return { block: errorResult(call.id, `Error: No such tool available: ${call.name}. Available tools: ${names}.`) };
    }
    const parsed = tool.input.safeParse(call.input);
    if (!parsed.success) return { block: errorResult(call.id, formatIssues(tool.name, parsed.error)) };
    const input: unknown = parsed.data;
    const { session } = this.options;
    const decision = await this.options.gate.check({
      toolName: tool.name,
      access: tool.access,
      subject: tool.subject(input, session),
      input,
      toolUseId: call.id,
    });
    if (decision.behavior === "deny") {
      emit({ type: "permission_denied", id: call.id, name: tool.name, input: call.input, reason: decision.reason });
      return {
        block: errorResult(call.id, decision.reason),
        denial: { tool_name: tool.name, tool_use_id: call.id, tool_input: call.input, reason: decision.reason },
        data: `Error: ${decision.reason}`,
      };
    }
    if (signal.aborted) return { block: errorResult(call.id, "Interrupted by user before the tool ran.") };
    const limit = withTimeout(signal, this.options.toolTimeoutMs);
    try {
      const output = await tool.run(input, { toolUseId: call.id, signal: limit.signal, session });
      const block = this.toResult(call.id, output);
      if (output.isError || limit.signal.aborted) block.is_error = true;
      const data = output.data === undefined ? undefined : boundStrings(output.data, this.options.maxResultChars);
      return { block, display: output.display, data };
    } catch (thrown) {
      if (limit.timedOut()) {
        return { block: errorResult(call.id, `${tool.name} timed out after ${Math.round(this.options.toolTimeoutMs / 1000)}s.`) };
      }
      if (signal.aborted) return { block: errorResult(call.id, "Interrupted by user.") };
      const message = thrown instanceof ClewError ? thrown.message : `${tool.name} failed: ${errorMessage(thrown)}`;
      return { block: errorResult(call.id, message), data: `Error: ${message}` };
    }
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
