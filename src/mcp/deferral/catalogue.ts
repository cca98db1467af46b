/**
 * What the model is told about deferred tools: their names (and their servers' instructions), in
 * a reminder on the user message, never in the system prompt, so the cached prefix does not
 * change when servers come and go. Sent in full once, then only what changed.
 */
import type { AnyTool } from "../../tools/types.ts";

/** Server name → its `instructions` from initialize. */
export type ServerInstructions = Readonly<Record<string, string>>;

const HEADER =
  "These tools are deferred: their names are listed below, their input schemas are not loaded yet, so a direct call " +
  'fails validation. Load what you need with ToolSearch first: query "select:<name>" (several names separated by ' +
  "commas) loads tools by name, a few keywords search the names and descriptions.";

function serversOf(tools: readonly AnyTool[], names: ReadonlySet<string>): string[] {
  const servers: string[] = [];
  for (const tool of tools) {
    const server = tool.origin?.server;
    if (server !== undefined && names.has(tool.name) && !servers.includes(server)) servers.push(server);
  }
  return servers;
}

function instructionLines(servers: readonly string[], instructions: ServerInstructions): string[] {
  return servers.flatMap((server) => {
    const text = instructions[server]?.trim();
    return text ? ["", `Instructions from MCP server ${server}:`, text] : [];
  });
}

/** The full catalogue: every deferred tool's name, in the session's tool order. */
export function deferredCatalogue(tools: readonly AnyTool[], deferred: ReadonlySet<string>, instructions: ServerInstructions = {}): string {
  const names = tools.filter((tool) => deferred.has(tool.name)).map((tool) => tool.name);
  if (names.length === 0) return "";
  return [HEADER, ...names, ...instructionLines(serversOf(tools, deferred), instructions)].join("\n");
}

/**
 * Remembers what the model was last told, so a reminder goes out only when the deferred set
 * changed: the first time the whole catalogue, later the tools added and removed.
 */
export class DeferralAnnouncer {
  #announced: Set<string> | undefined;

  /** The reminder text for this request, or undefined when the model already knows the set. */
  announce(tools: readonly AnyTool[], deferred: ReadonlySet<string>, instructions: ServerInstructions = {}): string | undefined {
    const current = tools.filter((tool) => deferred.has(tool.name)).map((tool) => tool.name);
    const previous = this.#announced;
    const now = new Set(current);
    this.#announced = now;
    if (previous === undefined) return current.length > 0 ? deferredCatalogue(tools, deferred, instructions) : undefined;
    const added = current.filter((name) => !previous.has(name));
    const removed = [...previous].filter((name) => !now.has(name));
    if (added.length === 0 && removed.length === 0) return undefined;
    const lines: string[] = [];
    if (added.length > 0) {
      lines.push("More deferred tools are available through ToolSearch (schemas not loaded; load them before calling):", ...added);
      lines.push(...instructionLines(serversOf(tools, new Set(added)), instructions));
    }
    if (removed.length > 0) {
      if (lines.length > 0) lines.push("");
      lines.push("These deferred tools are no longer available; do not call them:", ...removed);
    }
    return lines.join("\n");
  }

  /** After compaction the earlier reminders are gone: the next announcement repeats everything. */
  reset(): void {
    this.#announced = undefined;
  }
}
