/**
 * What a helper hands back: the tool result the parent model reads (the final message, its agent
 * id and a usage line — nothing of the helper's own conversation) and the structured result for
 * transcripts, hooks and stream-json (`tool_use_result`, Claude Code's shape).
 */
import type { LoopOutcome } from "../../loop/events.ts";
import type { TokenUsage } from "../../model/types.ts";
import type { ToolOutput } from "../../tools/types.ts";

export interface HelperRun {
  agentId: string;
  agentType: string;
  description: string;
  prompt: string;
  model: string;
  outcome: LoopOutcome;
  toolUses: number;
  durationMs: number;
  usage: TokenUsage;
  worktree?: { path: string; branch: string; summary: string; kept: boolean };
}

/** Text a helper may not pass up as if the harness or the user had said it. */
const INSTRUCTION_SHAPED = [
  { name: "system-reminder tag", pattern: /<(\/?)system-reminder>/g, replace: "\\<$1system-reminder>" },
  { name: "Human: turn marker", pattern: /^(Human|Assistant):/gm, replace: "\\$1:" },
];

/** Escapes imitations of harness markup in a helper's report, and says so on a first line. */
export function neutralise(text: string): string {
  const matched: string[] = [];
  let out = text;
  for (const { name, pattern, replace } of INSTRUCTION_SHAPED) {
    if (!new RegExp(pattern.source, pattern.flags).test(out)) continue;
    matched.push(name);
    out = out.replace(pattern, replace);
  }
  return matched.length === 0 ? out : `[harness: helper output matched instruction-shaped pattern(s): ${matched.join(", ")}; they are escaped below]\n${out}`;
}

const totalTokens = (usage: TokenUsage) => usage.inputTokens + usage.outputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;

export function continuationHint(agentId: string): string {
  return `agentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)`;
}

function endNote(outcome: LoopOutcome): string | undefined {
  switch (outcome.reason) {
    case "completed":
    case "hook_stopped":
      return undefined;
    case "max_turns":
      return "[The helper reached its turn limit before finishing; the text above is what it had so far.]";
    case "max_budget":
      return "[The session's budget (--max-budget-usd) ran out before the helper finished.]";
    case "aborted_streaming":
    case "aborted_tools":
      return "[The helper was interrupted.]";
    default:
      return `[Agent terminated early due to an API error${outcome.error ? `: ${outcome.error.message}` : ""}; the text above is its partial output.]`;
  }
}

export function helperResult(run: HelperRun): ToolOutput {
  const final = neutralise(run.outcome.finalText.trim());
  const note = endNote(run.outcome);
  const parts = [final || "(the helper ended without a final message)"];
  if (note) parts.push(note);
  if (run.worktree) parts.push(run.worktree.summary);
  parts.push(continuationHint(run.agentId));
  parts.push(`<usage>total_tokens: ${totalTokens(run.usage)}\ntool_uses: ${run.toolUses}\nduration_ms: ${Math.round(run.durationMs)}</usage>`);
  return {
    content: parts.join("\n\n"),
    isError: note !== undefined && final === "",
    display: { summary: `${run.agentType}: ${run.description} — done (${run.toolUses} tool ${run.toolUses === 1 ? "use" : "uses"}, ${(run.durationMs / 1000).toFixed(1)}s)` },
    data: {
      status: "completed",
      agentId: run.agentId,
      agentType: run.agentType,
      content: [{ type: "text", text: final }],
      resolvedModel: run.model,
      totalToolUseCount: run.toolUses,
      totalDurationMs: Math.round(run.durationMs),
      totalTokens: totalTokens(run.usage),
      usage: {
        input_tokens: run.usage.inputTokens,
        output_tokens: run.usage.outputTokens,
        cache_read_input_tokens: run.usage.cacheReadInputTokens,
        cache_creation_input_tokens: run.usage.cacheCreationInputTokens,
      },
      prompt: run.prompt,
      terminalReason: run.outcome.reason,
      ...(run.worktree ? { worktreePath: run.worktree.path, worktreeBranch: run.worktree.branch } : {}),
    },
  };
}

export function launchedResult(input: { agentId: string; agentType: string; description: string; prompt: string; model: string; outputFile?: string }): ToolOutput {
  return {
    content: [
      `The helper is working in the background. You will be told when it finishes; do not poll for it.`,
      continuationHint(input.agentId),
    ].join("\n"),
    display: { summary: `${input.agentType}: ${input.description} — started in the background` },
    data: { status: "async_launched", agentId: input.agentId, description: input.description, prompt: input.prompt, resolvedModel: input.model, ...(input.outputFile ? { outputFile: input.outputFile } : {}) },
  };
}

/** The reminder the parent reads on its next request once a background helper is done. */
export function completionNotice(run: HelperRun): string {
  const final = neutralise(run.outcome.finalText.trim()) || "(no final message)";
  const status = run.outcome.reason === "completed" ? "completed" : `ended (${run.outcome.reason})`;
  const lines = [
    `Background helper "${run.description}" (${run.agentType}, agentId ${run.agentId}) ${status} after ${run.toolUses} tool ${run.toolUses === 1 ? "use" : "uses"}. Its report:`,
    final,
  ];
  if (run.worktree) lines.push(run.worktree.summary);
  return lines.join("\n\n");
}
