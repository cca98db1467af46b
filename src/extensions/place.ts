/**
 * How a file becomes a named item (spec A.2 `name`, B subfolders, C.2/C.3, plugins.md §7): user
 * and project items are named after their folder or file; a command in a subfolder keeps its file
 * name and also answers to `sub:name`; plugin items are `<plugin>:<name>`, where a plugin skill's
 * frontmatter `name` replaces the last segment and subfolders become segments. Items are built
 * from the stored (cache) form with every field written out, cached or freshly parsed alike.
 */
import { AGENT_DEFAULTS, SKILL_DEFAULTS, type StoredAgentMeta } from "./index-cache.ts";
import type { ScanEntry } from "./scan.ts";
import type { AgentDefinition, ComponentSource, ExtensionProblem, Invocable, SkillMeta } from "./types.ts";

export function sourceLabel(source: ComponentSource): string {
  if (source.scope === "plugin") return `plugin:${source.namespace ?? ""}`;
  if (source.scope === "nested") return `project:${source.qualifier ?? ""}`;
  return source.scope;
}

/** Labels are the same for every item of a source but a subfolder's; computed once per source. */
const labels = new WeakMap<ComponentSource, string>();

function labelWith(source: ComponentSource, id: string): string {
  let label = labels.get(source);
  if (label === undefined) labels.set(source, (label = sourceLabel(source)));
  const cut = id.lastIndexOf(":");
  return cut < 0 ? label : `${label}:${id.slice(0, cut).split(":").join("/")}`;
}

/**
 * A plugin skill's frontmatter `name` becomes its last segment only when it can be typed as one:
 * `Unity Scene Optimizer` (real corpus file) stays the display name, the folder names the command.
 */
function segmentName(entry: ScanEntry, declared: string | undefined): string | undefined {
  return entry.kind === "skill" && declared !== undefined && /^[^\s:]+$/.test(declared) ? declared : undefined;
}

function aliasesOf(source: ComponentSource, entry: ScanEntry, name: string, declared: string | undefined): string[] {
  if (source.scope === "plugin") {
    const segment = segmentName(entry, declared);
    return segment !== undefined && segment !== entry.id ? [`${source.namespace}:${entry.id}`] : [];
  }
  const aliases = entry.id === name ? [] : [entry.id];
  if (source.scope === "nested" && source.qualifier !== undefined) aliases.push(`${source.qualifier}:${name}`);
  return aliases;
}

function nameOf(source: ComponentSource, entry: ScanEntry, declared: string | undefined): string {
  if (source.scope === "plugin") return `${source.namespace}:${segmentName(entry, declared) ?? entry.id}`;
  const cut = entry.id.lastIndexOf(":");
  return cut < 0 ? entry.id : entry.id.slice(cut + 1);
}

export function placeInvocable(source: ComponentSource, entry: ScanEntry, v: Partial<SkillMeta>, problems: ExtensionProblem[]): Invocable {
  const name = nameOf(source, entry, v.declaredName);
  return {
    kind: entry.kind === "skill" ? "skill" : "command",
    name,
    displayName: v.declaredName ?? name,
    declaredName: v.declaredName,
    description: v.description ?? "",
    descriptionFrom: v.descriptionFrom ?? SKILL_DEFAULTS.descriptionFrom,
    whenToUse: v.whenToUse,
    argumentHint: v.argumentHint,
    argumentNames: v.argumentNames ?? [],
    modelInvocable: v.modelInvocable ?? SKILL_DEFAULTS.modelInvocable,
    userInvocable: v.userInvocable ?? SKILL_DEFAULTS.userInvocable,
    allowedTools: v.allowedTools ?? [],
    disallowedTools: v.disallowedTools ?? [],
    model: v.model,
    effort: v.effort,
    context: v.context,
    agent: v.agent,
    background: v.background ?? SKILL_DEFAULTS.background,
    hooks: v.hooks,
    paths: v.paths ?? [],
    shell: v.shell ?? SKILL_DEFAULTS.shell,
    metadata: v.metadata,
    license: v.license,
    compatibility: v.compatibility,
    source,
    file: entry.file,
    dir: entry.dir,
    id: entry.id,
    aliases: aliasesOf(source, entry, name, v.declaredName),
    label: labelWith(source, entry.id),
    problems,
  };
}

export function placeAgent(source: ComponentSource, entry: ScanEntry, v: StoredAgentMeta, problems: ExtensionProblem[]): AgentDefinition {
  const cut = entry.id.lastIndexOf(":");
  const baseName = v.baseName ?? entry.id.slice(cut + 1);
  const subfolders = cut < 0 ? "" : `${entry.id.slice(0, cut)}:`;
  return {
    name: source.scope === "plugin" ? `${source.namespace}:${subfolders}${baseName}` : baseName,
    declaredName: v.declaredName,
    description: v.description ?? "",
    tools: v.tools,
    disallowedTools: v.disallowedTools ?? [],
    model: v.model,
    permissionMode: v.permissionMode,
    maxTurns: v.maxTurns,
    skills: v.skills ?? [],
    mcpServers: v.mcpServers ?? [],
    hooks: v.hooks,
    memory: v.memory,
    background: v.background ?? AGENT_DEFAULTS.background,
    effort: v.effort,
    isolation: v.isolation,
    color: v.color,
    initialPrompt: v.initialPrompt,
    source,
    file: entry.file,
    id: entry.id,
    aliases: [],
    label: labelWith(source, entry.id),
    problems,
  };
}
