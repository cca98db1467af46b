/**
 * The agent definitions as the Agent tool's description lists them, within a budget: hundreds of
 * plugin agents — whose descriptions often carry paragraphs of examples — would otherwise put
 * 100 KB into every request (the corpus's 266 agents: 103 KB). Every name is always listed; when
 * the full lines do not fit, the descriptions share the room left, the longest cut first at a word
 * boundary, so short ones stay whole. A session with a few dozen agents is never shortened.
 */
import type { AgentListing } from "../extensions/summary.ts";

/** About 4,000 tokens: twice the skill listing's default share of a 200k window. */
export const AGENT_LISTING_BUDGET_CHARS = 16_000;

function line(agent: AgentListing, description: string): string {
  const tools = agent.tools && agent.tools.length > 0 ? agent.tools.join(", ") : "*";
  return `- ${agent.name}${description === "" ? "" : `: ${description}`} (Tools: ${tools})`;
}

const length = (lines: readonly string[]): number => lines.reduce((sum, text) => sum + text.length + 1, 0);

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The largest per-description length whose lines fit `room` characters (0 when even names alone do not). */
function widestFitting(agents: readonly AgentListing[], room: number): number {
  let low = 0;
  let high = Math.max(0, ...agents.map((agent) => agent.description.length));
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const used = agents.reduce((sum, agent) => sum + Math.min(agent.description.length, mid) + (agent.description === "" ? 0 : 2), 0);
    if (used <= room) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The listing's lines, and whether any description was shortened to fit `budgetChars`. */
export function agentListingLines(agents: readonly AgentListing[], budgetChars = AGENT_LISTING_BUDGET_CHARS): { lines: string[]; shortened: boolean } {
  const full = agents.map((agent) => line(agent, agent.description));
  if (length(full) <= budgetChars) return { lines: full, shortened: false };
  const names = agents.map((agent) => line(agent, ""));
  const width = widestFitting(agents, budgetChars - length(names));
  // Below a few words a description says nothing: the names alone then.
  if (width < 24) return { lines: names, shortened: true };
  return { lines: agents.map((agent) => line(agent, shorten(agent.description, width))), shortened: true };
}
