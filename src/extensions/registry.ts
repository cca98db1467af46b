/**
 * The one registry the loop, the UI and headless mode read. Built from loaded sources in
 * precedence order, it decides every name clash once (spec A.3, B, C.2) and reports each loser
 * once: skills and commands share one namespace — managed > user > project > nested > --add-dir,
 * within a scope a skill beats a command, and within a kind the earlier source (`.clew/` before
 * `.claude/`, nearer before farther) wins; agents rank managed > --agents > project > --add-dir >
 * user > plugin. Plugin items never clash with local ones: their names carry the plugin prefix.
 */
import { readFile } from "node:fs/promises";
import { overrideRefusal, withOverride, type SkillOverrides } from "./overrides.ts";
import type { AgentDefinition, ComponentSource, ExtensionProblem, Invocable, SourceScope } from "./types.ts";

export interface LoadedSource {
  source: ComponentSource;
  invocables: Invocable[];
  agents: AgentDefinition[];
  /** Scan problems (unreadable folders, skills-dir plugins); file problems live on the items. */
  problems: ExtensionProblem[];
  skillsDirPlugins: string[];
}

const INVOCABLE_RANK: Record<SourceScope, number> = { managed: 0, user: 1, project: 2, nested: 3, "add-dir": 4, cli: 5, plugin: 6 };
const AGENT_RANK: Record<SourceScope, number> = { managed: 0, cli: 1, project: 2, nested: 3, "add-dir": 3, user: 4, plugin: 5 };

export type Invocation =
  | { ok: true; item: Invocable; /** Nested variants of the same name, qualified (`apps/web:deploy`). */ variants: Invocable[] }
  | { ok: false; code: "not-found" | "not-user-invocable" | "not-model-invocable"; message: string };

export type BodyResult = { ok: true; body: string } | { ok: false; problem: ExtensionProblem };

/** Sources grouped by rank, best first, keeping their given order inside a rank. */
function byRank(loaded: readonly LoadedSource[], ranks: Record<SourceScope, number>): LoadedSource[] {
  return loaded.map((entry, index) => ({ entry, index })).sort((a, b) => ranks[a.entry.source.scope] - ranks[b.entry.source.scope] || a.index - b.index).map(({ entry }) => entry);
}

function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf(":") + 1);
}

interface Clashing {
  name: string;
  file: string;
  source: ComponentSource;
  kind?: "skill" | "command";
}

/**
 * Two items of one kind in one folder tree is an authoring mistake (warning); a stronger scope, an
 * earlier folder of the same scope (`.clew/` before `.claude/`, nearer before the repository root)
 * or a skill replacing a same-named command is how precedence is meant to work (info).
 */
function clashProblem(kind: string, loser: Clashing, winner: Clashing, reachableAs: string | undefined): ExtensionProblem {
  const skillOverCommand = loser.kind === "command" && winner.kind === "skill";
  const mistake = loser.source === winner.source && !skillOverCommand;
  const why = skillOverCommand
    ? " (a skill beats a command of the same name)"
    : mistake
      ? ""
      : loser.source.scope === winner.source.scope
        ? " (its folder is searched first)"
        : ` (${winner.source.scope} over ${loser.source.scope})`;
  const outcome = reachableAs === undefined ? "this one is not used" : `this one is still available as "${reachableAs}"`;
  return {
    code: mistake ? "duplicate-name" : "shadowed",
    severity: mistake ? "warning" : "info",
    file: loser.file,
    message: `${kind} "${loser.name}" is also defined by ${winner.file}, which takes precedence${why}; ${outcome}.${mistake ? " Rename one of them." : ""}`,
  };
}

export class ExtensionRegistry {
  /** Items that lost a name clash (each has a `shadowed`/`duplicate-name` problem). */
  readonly shadowed: (Invocable | AgentDefinition)[] = [];
  /** `<skills-dir>/<x>/.claude-plugin/plugin.json` folders, for the plugin loader. */
  readonly skillsDirPlugins: readonly string[];
  private readonly byName = new Map<string, Invocable>();
  private readonly byAlias = new Map<string, Invocable>();
  private readonly agentsByName = new Map<string, AgentDefinition>();
  private readonly clashes: ExtensionProblem[] = [];
  private sortedInvocables: Invocable[] | undefined;
  private sortedAgents: AgentDefinition[] | undefined;
  private allProblems: ExtensionProblem[] | undefined;

  constructor(
    readonly loaded: readonly LoadedSource[],
    /** The user's `skillOverrides`, applied to every item placed (nested ones found later too). */
    private readonly overrides?: SkillOverrides,
  ) {
    const invocableOrder = byRank(loaded, INVOCABLE_RANK);
    for (let at = 0; at < invocableOrder.length; ) {
      // Within one rank: every skill first, then every command (a skill beats a command).
      const rank = INVOCABLE_RANK[(invocableOrder[at] as LoadedSource).source.scope];
      let end = at;
      while (end < invocableOrder.length && INVOCABLE_RANK[(invocableOrder[end] as LoadedSource).source.scope] === rank) end++;
      const group = invocableOrder.slice(at, end);
      for (const kind of ["skill", "command"] as const) {
        for (const entry of group) for (const item of entry.invocables) if (item.kind === kind) this.placeInvocable(withOverride(item, overrides));
      }
      at = end;
    }
    for (const entry of byRank(loaded, AGENT_RANK)) {
      for (const item of entry.agents) {
        const winner = this.agentsByName.get(item.name);
        if (winner === undefined) this.agentsByName.set(item.name, item);
        else {
          this.clashes.push(clashProblem("agent", item, winner, undefined));
          this.shadowed.push(item);
        }
      }
    }
    this.skillsDirPlugins = loaded.flatMap((entry) => entry.skillsDirPlugins);
  }

  private placeInvocable(item: Invocable): void {
    const winner = this.byName.get(item.name);
    let placed = item;
    if (winner !== undefined && item.source.scope === "nested" && item.aliases.length > 0) {
      // A nested skill whose name is taken stays available under its qualified name (spec A.3).
      const qualified = item.aliases.at(-1) ?? item.name;
      const taken = this.byName.get(qualified);
      if (taken !== undefined) {
        this.clashes.push(clashProblem(item.kind, item, taken, undefined));
        this.shadowed.push(item);
        return;
      }
      placed = { ...item, name: qualified, aliases: item.aliases.filter((alias) => alias !== qualified) };
    } else if (winner !== undefined) {
      const alias = item.aliases.find((candidate) => !this.byName.has(candidate) && !this.byAlias.has(candidate));
      this.clashes.push(clashProblem(item.kind, item, winner, alias));
      this.shadowed.push(item);
      for (const candidate of item.aliases) if (!this.byAlias.has(candidate)) this.byAlias.set(candidate, item);
      return;
    }
    this.byName.set(placed.name, placed);
    for (const alias of placed.aliases) if (!this.byAlias.has(alias)) this.byAlias.set(alias, placed);
  }

  /** Active skills and commands, sorted by name. */
  get invocables(): readonly Invocable[] {
    this.sortedInvocables ??= [...this.byName.values()].sort((a, b) => compareText(a.name, b.name));
    return this.sortedInvocables;
  }

  /** Active agents, sorted by name. */
  get agents(): readonly AgentDefinition[] {
    this.sortedAgents ??= [...this.agentsByName.values()].sort((a, b) => compareText(a.name, b.name));
    return this.sortedAgents;
  }

  /** Every problem once: scan problems, each file's problems, then name clashes. */
  get problems(): readonly ExtensionProblem[] {
    if (this.allProblems !== undefined) return this.allProblems;
    const seen = new Set<string>();
    const problems: ExtensionProblem[] = [];
    const add = (problem: ExtensionProblem): void => {
      const key = `${problem.file}\0${problem.line ?? ""}\0${problem.code}\0${problem.message}`;
      if (seen.has(key)) return;
      seen.add(key);
      problems.push(problem);
    };
    for (const entry of this.loaded) {
      entry.problems.forEach(add);
      for (const item of entry.invocables) item.problems.forEach(add);
      for (const item of entry.agents) item.problems.forEach(add);
    }
    this.clashes.forEach(add);
    this.allProblems = problems;
    return problems;
  }

  get sources(): ComponentSource[] {
    return this.loaded.map((entry) => entry.source);
  }

  get skills(): Invocable[] {
    return this.invocables.filter((item) => item.kind === "skill");
  }

  get commands(): Invocable[] {
    return this.invocables.filter((item) => item.kind === "command");
  }

  /**
   * A skill or command by what the user typed or the model passed (`/deploy`, `acme:review`):
   * exact name, then another name it answers to, then a plugin item's bare name when exactly one
   * plugin has it, then a unique case-insensitive match.
   */
  findInvocable(typed: string): Invocable | undefined {
    const name = typed.trim().replace(/^\//, "");
    const exact = this.byName.get(name) ?? this.byAlias.get(name);
    if (exact !== undefined) return exact;
    const bare = this.invocables.filter((item) => item.source.scope === "plugin" && lastSegment(item.name) === name);
    if (bare.length === 1) return bare[0];
    const folded = this.invocables.filter((item) => item.name.toLowerCase() === name.toLowerCase());
    return folded.length === 1 ? folded[0] : undefined;
  }

  /** An agent by `subagent_type` / `--agent`: exact, else a plugin agent's bare name when unique. */
  findAgent(typed: string): AgentDefinition | undefined {
    const name = typed.trim();
    const exact = this.agentsByName.get(name);
    if (exact !== undefined) return exact;
    const bare = this.agents.filter((agent) => agent.source.scope === "plugin" && lastSegment(agent.name) === name);
    return bare.length === 1 ? bare[0] : undefined;
  }

  /** Nested skills and commands that share `name`'s last segment, for "other variants" notes. */
  variants(name: string): Invocable[] {
    const base = lastSegment(name);
    return this.invocables.filter((item) => item.source.scope === "nested" && item.name !== name && lastSegment(item.name) === base);
  }

  /** Resolves `/name` typed by the user or a Skill tool call by the model, with the refusal if any. */
  resolveInvocation(typed: string, by: "user" | "model"): Invocation {
    const item = this.findInvocable(typed);
    const shown = typed.trim().replace(/^\//, "");
    if (item === undefined) return { ok: false, code: "not-found", message: `There is no skill or command named "${shown}".` };
    const overridden = overrideRefusal(item, by);
    if (overridden !== undefined) return { ok: false, code: by === "user" ? "not-user-invocable" : "not-model-invocable", message: overridden };
    if (by === "user" && !item.userInvocable) {
      return { ok: false, code: "not-user-invocable", message: `/${item.name} can only be used by the model (user-invocable: false in ${item.file}).` };
    }
    if (by === "model" && !item.modelInvocable) {
      return { ok: false, code: "not-model-invocable", message: `Skill "${item.name}" can only be run by the user, as /${item.name} (disable-model-invocation is set in ${item.file}).` };
    }
    return { ok: true, item, variants: this.variants(item.name) };
  }

  /** The body (frontmatter removed) of an item, read now: bodies are never part of the index. */
  async loadBody(item: Invocable | AgentDefinition): Promise<BodyResult> {
    if ("prompt" in item && item.prompt !== undefined) return { ok: true, body: item.prompt };
    let text: string;
    try {
      text = await readFile(item.file, "utf8");
    } catch (error) {
      const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : String(error);
      return { ok: false, problem: { code: "unreadable", severity: "error", file: item.file, message: `cannot read this file any more (${code}); restore it or restart clew to drop "${item.name}".` } };
    }
    const split = (await import("./frontmatter.ts")).splitFrontmatter(text);
    return { ok: true, body: text.slice(split.bodyOffset).replace(/^(?:[ \t]*\r?\n)+/, "") };
  }

  /** A registry with more sources appended at lower precedence (nested folders found later). */
  extend(more: readonly LoadedSource[]): ExtensionRegistry {
    const known = new Set(this.loaded.map((entry) => entry.source.root));
    const fresh = more.filter((entry) => !known.has(entry.source.root));
    return fresh.length === 0 ? this : new ExtensionRegistry([...this.loaded, ...fresh], this.overrides);
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
