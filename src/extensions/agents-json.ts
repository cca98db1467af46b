/**
 * Agents given on the command line: `--agents '{"reviewer": {"description": …, "prompt": …}}'`
 * (spec C.2). The same field rules as agent files apply; the prompt is carried inline.
 */
import { agentMeta } from "./agent-meta.ts";
import { FieldReader } from "./fields.ts";
import type { LoadedSource } from "./registry.ts";
import type { AgentDefinition, ComponentSource, ExtensionProblem } from "./types.ts";

/** `origin` names the input in problems, e.g. `--agents`. */
export function agentsFromJson(value: unknown, origin = "--agents"): LoadedSource {
  const source: ComponentSource = { scope: "cli", root: origin, skills: [], commands: [], agents: [] };
  const problems: ExtensionProblem[] = [];
  const agents: AgentDefinition[] = [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push({ code: "invalid-field", severity: "error", file: origin, message: `must be a JSON object of agent name to definition, e.g. {"reviewer": {"description": "…", "prompt": "…"}}; no agents were added.` });
    return { source, invocables: [], agents, problems, skillsDirPlugins: [] };
  }
  for (const [name, definition] of Object.entries(value)) {
    const file = `${origin} ${name}`;
    if (typeof definition !== "object" || definition === null || Array.isArray(definition)) {
      problems.push({ code: "invalid-field", severity: "error", file, field: name, message: `agent "${name}" must be an object with "description" and "prompt"; it is skipped.` });
      continue;
    }
    const fields: Record<string, unknown> = { ...(definition as Record<string, unknown>), name };
    const itemProblems: ExtensionProblem[] = [];
    const reading = agentMeta(new FieldReader(fields, {}, file, itemProblems), { stem: name });
    const prompt = typeof fields.prompt === "string" ? fields.prompt : undefined;
    if (!("meta" in reading) || prompt === undefined) {
      if (prompt === undefined) itemProblems.push({ code: "agent-skipped", severity: "error", file, field: "prompt", message: `agent "${name}" has no "prompt" (its system prompt); it is skipped.` });
      problems.push(...itemProblems);
      continue;
    }
    const { baseName, ...meta } = reading.meta;
    agents.push({ ...meta, name: baseName, prompt, source, file, id: name, aliases: [], label: "cli", problems: itemProblems });
  }
  return { source, invocables: [], agents, problems, skillsDirPlugins: [] };
}
