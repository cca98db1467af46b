/**
 * The job summary (GITHUB_STEP_SUMMARY) for one run: how it ended, what it cost, the session to
 * resume, the denied tool calls, and the final answer or the errors.
 */
import type { InstalledClew } from "./install.ts";
import type { RunOutcome } from "./run-clew.ts";

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

function dollars(cost: number | undefined): string {
  return cost === undefined ? "—" : `$${cost.toFixed(4)}`;
}

function seconds(ms: number | undefined): string {
  if (ms === undefined) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function shortInput(input: unknown): string {
  const text = JSON.stringify(input) ?? "";
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

export function summaryMarkdown(outcome: RunOutcome, clew: InstalledClew, title: string): string {
  const { result } = outcome;
  const status = result === undefined ? "no result" : result.is_error ? `failed: ${result.subtype}` : "succeeded";
  const rows: [string, string][] = [
    ["exit code", String(outcome.exitCode)],
    ["result", result === undefined ? "no json result on stdout" : `${result.subtype}${result.terminal_reason ? ` (${result.terminal_reason})` : ""}`],
    ["turns", result?.num_turns === undefined ? "—" : String(result.num_turns)],
    ["cost", dollars(result?.total_cost_usd)],
    ["duration", seconds(result?.duration_ms)],
    ["session", result?.session_id ? `\`${result.session_id}\`` : "—"],
    ["clew", `${clew.version} (${clew.source === "clew-path" ? `clew-path ${clew.path}` : clew.source})`],
  ];
  const lines = [`### ${cell(title)}: ${status}`, "", "| | |", "|---|---|", ...rows.map(([name, value]) => `| ${name} | ${cell(value)} |`), ""];
  const denials = result?.permission_denials ?? [];
  if (denials.length > 0) {
    lines.push(`#### Denied tool calls (${denials.length})`, "", "| tool | input |", "|---|---|");
    for (const denial of denials) lines.push(`| ${cell(denial.tool_name ?? "?")} | \`${cell(shortInput(denial.tool_input))}\` |`);
    lines.push("");
  }
  if (result?.errors && result.errors.length > 0) {
    lines.push("#### Errors", "", ...result.errors.map((error) => `- ${error}`), "");
  } else if (result?.result !== undefined && result.result !== "") {
    lines.push("#### Result", "", result.result, "");
  } else if (result === undefined && outcome.stderrTail !== "") {
    lines.push("#### stderr (last lines)", "", "```", outcome.stderrTail.split("\n").slice(-20).join("\n"), "```", "");
  }
  return `${lines.join("\n")}\n`;
}
