/**
 * The session's skills, commands and agents: one registry loaded from the component sources
 * (user, project up to the repository root, `--add-dir`; plugins add more), and the catalogue the
 * model sees. A session whose folders hold none pays for a few directory checks; one whose files
 * did not change since last time reads a start-up summary and builds the registry only when
 * something is invoked, listed or completed.
 */
import type { ExtensionProblem, ExtensionRegistry } from "../extensions/index.ts";
import type { AgentListing, StartupSummary } from "../extensions/summary.ts";
import { anyFolderExists, discoverSources } from "../extensions/sources.ts";
import { agentListingLines, fitAgentDescriptions, rememberAgentListing } from "./agent-listing.ts";
import type { SkillOverrides } from "../extensions/overrides.ts";
import type { ComponentSource, SourceSet } from "../extensions/types.ts";

/** The registry, built on first use (or already built); replaced when nested folders add to it. */
export class LazyRegistry {
  private promise: Promise<ExtensionRegistry> | undefined;
  private value: ExtensionRegistry | undefined;

  constructor(private readonly build: () => Promise<ExtensionRegistry>, built?: ExtensionRegistry) {
    if (built) this.replace(built);
  }

  get(): Promise<ExtensionRegistry> {
    this.promise ??= this.build().then((registry) => (this.value ??= registry));
    return this.promise;
  }

  /** The registry if it has been built (for synchronous readers: completion, /help). */
  peek(): ExtensionRegistry | undefined {
    return this.value;
  }

  replace(registry: ExtensionRegistry): void {
    this.value = registry;
    this.promise = Promise.resolve(registry);
  }
}

export interface SessionExtensions {
  /** Undefined when no skills, commands or agents folder exists anywhere. */
  registry: LazyRegistry | undefined;
  /** How many skills and commands the model may call through the Skill tool. */
  modelInvocable: number;
  /** The catalogue for the system prompt (empty when there is nothing to list). */
  catalogue: string;
  /** Some item carries frontmatter hooks. */
  withHooks: boolean;
  /** Problems to report at start-up (errors). */
  errors: readonly ExtensionProblem[];
  /** Agent definitions (files and `--agents`), for the Agent tool's list: one per name, in its order, descriptions on one line. */
  agents: readonly AgentListing[];
  /** What the user may type as `/name`, and the skills' names (stream-json `system/init`). */
  names: { readonly commands: readonly string[]; readonly skills: readonly string[] };
}

export interface ExtensionsInput {
  cwd: string;
  projectRoot: string | undefined;
  /** clew's user folder (`~/.clew`): its skills/, commands/ and agents/. */
  userDir: string;
  managedDirs: readonly string[];
  addDirs: readonly string[];
  /** `--bare`: no folder is looked in; only `--agents` and `--plugin-dir` plugins contribute. */
  noDiscovery?: boolean;
  cacheDir: string | undefined;
  /** Characters the catalogue may take (about 1% of the window, spec A.4). */
  budgetChars: number;
  /** `--agents` JSON, parsed. */
  agentsJson?: unknown;
  /** Enabled plugins, one source each (lowest rank: a user or project item of the same name wins). */
  pluginSources?: SourceSet;
  /** Settings `skillOverrides`: how each of the user's skills and commands is offered. */
  skillOverrides?: SkillOverrides;
}

const CATALOGUE_HEADER =
  "# Skills\nSkills are instructions for particular tasks. When a task matches one, load it with the Skill tool (skill: its name) before you start; load only the skills the task needs.";

const withHeader = (catalogue: string): string => (catalogue ? `${CATALOGUE_HEADER}\n${catalogue}` : "");

/**
 * The agents as the Agent tool lists them — by name in the user's collation, each description on
 * one line, cut to the listing's budget — worked out when the summary is written, so a start with
 * hundreds of plugin agents does none of it (the collator alone costs about a millisecond to set up,
 * fitting 266 agents' descriptions another).
 */
function agentListing(agents: ExtensionRegistry["agents"]): AgentListing[] {
  const sorted = [...agents]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((agent) => ({ name: agent.name, description: agent.description.replace(/\s+/g, " ").trim(), ...(agent.tools ? { tools: [...agent.tools] } : {}) }));
  return [...fitAgentDescriptions(sorted)];
}

async function fullLoad(sources: readonly ComponentSource[], input: ExtensionsInput): Promise<{ registry: ExtensionRegistry; summary: StartupSummary }> {
  const [{ loadExtensions }, { skillCatalogue }, { agentsFromJson }] = await Promise.all([import("../extensions/load.ts"), import("../extensions/catalogue.ts"), import("../extensions/agents-json.ts")]);
  const extra = input.agentsJson === undefined ? [] : [agentsFromJson(input.agentsJson)];
  const registry = await loadExtensions({ sources, extra, ...(input.cacheDir ? { cacheDir: input.cacheDir } : {}), ...(input.skillOverrides ? { overrides: input.skillOverrides } : {}) });
  const modelInvocable = registry.invocables.filter((item) => item.modelInvocable);
  const agents = agentListing(registry.agents);
  return {
    registry,
    summary: {
      catalogue: modelInvocable.length > 0 ? skillCatalogue(modelInvocable, { budgetChars: input.budgetChars }) : "",
      modelInvocable: modelInvocable.length,
      withHooks: registry.invocables.some((item) => item.hooks !== undefined) || registry.agents.some((agent) => agent.hooks !== undefined),
      errors: registry.problems.filter((problem) => problem.severity === "error"),
      agents,
      agentLines: agentListingLines(agents),
      names: {
        commands: registry.invocables.filter((item) => item.userInvocable).map((item) => item.name),
        skills: registry.invocables.filter((item) => item.kind === "skill" && (item.userInvocable || item.modelInvocable)).map((item) => item.name),
      },
    },
  };
}

/** What the session takes of a summary (stored or just made); its agents' listing stays with them. */
function fromSummary(registry: LazyRegistry, { agentLines, ...summary }: StartupSummary): SessionExtensions {
  if (agentLines) rememberAgentListing(summary.agents, agentLines);
  return { registry, ...summary, catalogue: withHeader(summary.catalogue) };
}

export async function loadSessionExtensions(input: ExtensionsInput): Promise<SessionExtensions> {
  const own = input.noDiscovery ? [] : discoverSources({
    cwd: input.cwd,
    userDir: input.userDir,
    managedDirs: input.managedDirs,
    addDirs: input.addDirs,
    ...(input.projectRoot ? { projectRoot: input.projectRoot } : {}),
  });
  const plugins = input.pluginSources;
  // Most sessions have no extension folder at all: then the layer is not even loaded.
  if (!anyFolderExists(own) && plugins?.anyFolder !== true && input.agentsJson === undefined) return { registry: undefined, modelInvocable: 0, catalogue: "", withHooks: false, errors: [], agents: [], names: { commands: [], skills: [] } };
  // The plugins' sources are made only here, when the registry is built.
  const sources = () => [...own, ...(plugins?.list() ?? [])];
  const build = async () => (await fullLoad(sources(), input)).registry;
  // `--agents` is not part of the cached summary: a run that passes it loads in full.
  if (input.cacheDir && input.agentsJson === undefined) {
    const { cachedSummary, saveSummary } = await import("../extensions/summary.ts");
    const { summary } = cachedSummary(own, plugins, input.cacheDir, input.budgetChars, input.skillOverrides);
    if (summary) return fromSummary(new LazyRegistry(build), summary);
    const all = sources();
    const loaded = await fullLoad(all, input);
    // A refused plugin's absence is this start's finding, not a summary of its (unchanged) folder.
    if (!all.some((source) => source.guard?.() !== undefined)) await saveSummary(own, plugins, input.cacheDir, input.budgetChars, loaded.summary, input.skillOverrides);
    return fromSummary(new LazyRegistry(build, loaded.registry), loaded.summary);
  }
  const loaded = await fullLoad(sources(), input);
  return fromSummary(new LazyRegistry(build, loaded.registry), loaded.summary);
}
