/**
 * The agent definitions as the Agent tool's description lists them, within a budget: hundreds of
 * plugin agents — whose descriptions often carry paragraphs of examples — would otherwise put
 * 100 KB into every request (the corpus's 266 agents: 103 KB). Every name is always listed; when
 * the full lines do not fit, the descriptions share the room left, the longest cut first at a word
 * boundary, so short ones stay whole. A session with a few dozen agents is never shortened.
 *
 * The cutting is done once, when the extensions start-up summary is written (fitAgentDescriptions):
 * a start lists the stored descriptions as they are, each cut one marked, and fitting them again
 * changes nothing.
 */
import type { AgentListing, AgentListingLines } from "../extensions/summary.ts";

/** About 4,000 tokens: twice the skill listing's default share of a 200k window. */
export const AGENT_LISTING_BUDGET_CHARS = 16_000;

/**
 * What the extensions summary stores the lines under: change the lines' format or the fitting,
 * and change this, or a summary written before would go on serving the old lines.
 */
export const AGENT_LISTING_FORMAT = `1/${AGENT_LISTING_BUDGET_CHARS}`;

/** `16000` → `16,000`, without Intl (its first use costs ~2.5 ms of start-up). */
function grouped(value: number): string {
  // By hand: a regular expression (or Intl) here was a measurable part of loading this module at start-up.
  const digits = String(value);
  let out = "";
  for (let i = 0; i < digits.length; i++) out += (i > 0 && (digits.length - i) % 3 === 0 ? "," : "") + digits[i];
  return out;
}

/** What the listing says under its lines when a description in it was cut. */
export const AGENT_LISTING_SHORTENED_NOTE = `(Descriptions are shortened to keep this list under ${grouped(AGENT_LISTING_BUDGET_CHARS)} characters; every helper type is named.)`;

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

/** A description cut (or dropped) to fit, marked so the listing still says so. */
function cutTo(agent: AgentListing, description: string): AgentListing {
  return description === agent.description ? agent : { ...agent, description, shortened: true };
}

/** Over the budget: the descriptions cut to share the room the names leave. */
function fitted(agents: readonly AgentListing[], budgetChars: number): AgentListing[] {
  const width = widestFitting(agents, budgetChars - length(agents.map((agent) => line(agent, ""))));
  // Below a few words a description says nothing: the names alone then.
  if (width < 24) return agents.map((agent) => cutTo(agent, ""));
  return agents.map((agent) => cutTo(agent, shorten(agent.description, width)));
}

/** The agents with their descriptions as the listing shows them within `budgetChars` (the same agents when all fit). */
export function fitAgentDescriptions(agents: readonly AgentListing[], budgetChars = AGENT_LISTING_BUDGET_CHARS): readonly AgentListing[] {
  return length(agents.map((agent) => line(agent, agent.description))) <= budgetChars ? agents : fitted(agents, budgetChars);
}

/** Listings formatted when the extensions summary was written, by the first of the agents the session has from it. */
const stored = new WeakMap<AgentListing, { agents: readonly AgentListing[]; listing: AgentListingLines }>();

/** A summary's agents come with their listing: agentListingLines(those agents) then formats none of them (266 agents: ~0.6 ms). */
export function rememberAgentListing(agents: readonly AgentListing[], listing: AgentListingLines): void {
  const first = agents[0];
  if (first && listing.format === AGENT_LISTING_FORMAT) stored.set(first, { agents, listing });
}

/** The stored listing of exactly these agent objects, in this order (a copy of the list is as good). */
function storedListing(agents: readonly AgentListing[]): AgentListingLines | undefined {
  const first = agents[0];
  const entry = first && stored.get(first);
  if (!entry || entry.agents.length !== agents.length) return undefined;
  for (let index = 0; index < agents.length; index++) if (entry.agents[index] !== agents[index]) return undefined;
  return entry.listing;
}

/** The listing's lines, and whether a description in it is shortened (cut now, or when the summary stored it). */
export function agentListingLines(agents: readonly AgentListing[], budgetChars = AGENT_LISTING_BUDGET_CHARS): AgentListingLines {
  const known = budgetChars === AGENT_LISTING_BUDGET_CHARS ? storedListing(agents) : undefined;
  if (known) return known;
  const whole = agents.map((agent) => line(agent, agent.description));
  const shown = length(whole) <= budgetChars ? agents : fitted(agents, budgetChars);
  return {
    lines: shown === agents ? whole : shown.map((agent) => line(agent, agent.description)),
    shortened: shown.some((agent) => agent.shortened === true),
    ...(budgetChars === AGENT_LISTING_BUDGET_CHARS ? { format: AGENT_LISTING_FORMAT } : {}),
  };
}
