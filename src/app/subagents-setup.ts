/**
 * Wires helper agents into a session: the helper types (built-ins, then agent definitions, a
 * definition named like a built-in replacing it), the Agent tool's description listing them, and
 * the runner behind the Agent and SendMessage tools.
 */
import type { ApiTool } from "../model/types.ts";
import { FatalError } from "../util/errors.ts";
import type { AgentListing } from "../extensions/summary.ts";
import { AGENT_LISTING_SHORTENED_NOTE, agentListingLines } from "./agent-listing.ts";
import type { LazyRegistry } from "./extensions-setup.ts";
import { builtinHelperTypes, definedHelperType, type HelperType } from "./subagents/helper-types.ts";
import { SubagentRunner, type SubagentOptions } from "./subagents/runner.ts";

export interface HelperTypeSource {
  registry: LazyRegistry | undefined;
  withExplorePlan: boolean;
  withBuiltins: boolean;
}

export function helperTypeFinder(source: HelperTypeSource): Pick<SubagentOptions, "findType" | "typeNames"> {
  const builtins = source.withBuiltins ? builtinHelperTypes({ withExplorePlan: source.withExplorePlan }) : [];
  const findType = async (name: string): Promise<HelperType | undefined> => {
    const registry = await source.registry?.get();
    const defined = registry?.findAgent(name);
    if (registry && defined) return definedHelperType(defined, (definition) => registry.loadBody(definition));
    return builtins.find((type) => type.name === name) ?? builtins.find((type) => type.name.toLowerCase() === name.toLowerCase());
  };
  const typeNames = async (): Promise<string[]> => {
    const registry = await source.registry?.get();
    return [...new Set([...builtins.map((type) => type.name), ...(registry?.agents.map((agent) => agent.name) ?? [])])];
  };
  return { findType, typeNames };
}

/** The helper types as the Agent tool's description lists them: built-ins first, then definitions by name. */
export function agentToolDescription(base: string, agents: readonly AgentListing[], source: Pick<HelperTypeSource, "withExplorePlan" | "withBuiltins">): string {
  const defined = new Map(agents.map((agent) => [agent.name, agent]));
  const lines: string[] = [];
  const builtins = source.withBuiltins ? builtinHelperTypes({ withExplorePlan: source.withExplorePlan }) : [];
  for (const type of builtins) {
    if (defined.has(type.name)) continue;
    lines.push(`- ${type.name}: ${type.description}${type.readOnly ? " (read-only tools)" : ""}`);
  }
  // SessionExtensions.agents arrive sorted by name in the user's collation, each description on one
  // line (extensions-setup.ts works that out when the summary is written, not on every start).
  const listing = agentListingLines([...defined.values()]);
  lines.push(...listing.lines);
  // The note's text is built without Intl: its first use costs ~2.5 ms of start-up.
  const note = listing.shortened ? `\n${AGENT_LISTING_SHORTENED_NOTE}` : "";
  return `${base.trim()}\n\nHelper types:\n${lines.join("\n")}${note}`;
}

/** `/agents`: every helper type with where it is defined; a definition replaces a built-in of its name. */
export async function helperTypeListing(source: HelperTypeSource): Promise<Array<{ name: string; description: string; origin: string }>> {
  const registry = await source.registry?.get();
  const defined = (registry?.agents ?? []).map((agent) => ({ name: agent.name, description: agent.description, origin: agent.file }));
  const names = new Set(defined.map((agent) => agent.name));
  const builtins = source.withBuiltins ? builtinHelperTypes({ withExplorePlan: source.withExplorePlan }) : [];
  return [...builtins.filter((type) => !names.has(type.name)).map((type) => ({ name: type.name, description: type.description, origin: "built-in" })), ...defined];
}

/** Every helper type's name: built-ins a definition does not replace, then the definitions. */
export function helperTypeNames(agents: readonly AgentListing[], source: Pick<HelperTypeSource, "withExplorePlan" | "withBuiltins">): string[] {
  const builtins = source.withBuiltins ? builtinHelperTypes({ withExplorePlan: source.withExplorePlan }).map((type) => type.name) : [];
  return [...new Set([...builtins, ...agents.map((agent) => agent.name)])];
}

/** Replaces the Agent tool's definition with one whose description lists this session's helper types. */
export function withAgentList(tools: ApiTool[], description: string): ApiTool[] {
  return tools.map((tool) => (tool.name === "Agent" ? { ...tool, description } : tool));
}

/**
 * `--agent <name>` (or the `agent` setting): the main conversation runs as that agent — its
 * prompt replaces the system prompt, its tool selection and model apply (C.9).
 */
export async function mainThreadAgent(name: string, source: HelperTypeSource): Promise<{ type: HelperType; prompt: string }> {
  const finder = helperTypeFinder(source);
  const type = await finder.findType(name);
  if (!type) throw new FatalError("usage", `error: there is no agent named '${name}' (--agent / the "agent" setting).`, `Agents in this session: ${(await finder.typeNames()).join(", ")}.`);
  const prompt = await type.systemPrompt();
  if (!prompt.ok) throw new FatalError("config", `error: agent '${name}' cannot be used: ${prompt.message}`);
  return { type, prompt: prompt.text };
}

export { SubagentRunner };
