/**
 * The data model of clew's extension layer: component sources (a folder plus a namespace), the
 * skills, commands and agents loaded from them, and the problems found on the way. Everything
 * downstream (loop, UI, headless mode) sees only these shapes; where an item came from is told by
 * its `source` and `file`, never by a separate code path.
 */

/**
 * Where a source sits in the precedence order (spec skills-commands-agents.md A.3, C.2).
 * `nested` = a `.clew/`/`.claude/` folder below the working directory, loaded when the agent
 * first touches a file there; `cli` = agents given with `--agents` JSON.
 */
export type SourceScope = "managed" | "cli" | "user" | "project" | "nested" | "add-dir" | "plugin";

/**
 * Sources that come as one set (enabled plugins', one source each): what names them all and
 * whether any has a component folder are known before the sources themselves, which a warm start
 * with hundreds of plugins makes only when the registry is built (a skill is invoked, listed or
 * completed) — its first request needs the stored summary alone.
 */
export interface SourceSet {
  /** Hash of the sources' identities in order (see sourceIdentity): the summary's key for them. */
  readonly digest: string;
  /** Some source has a skills, commands or agents folder (or file). */
  readonly anyFolder: boolean;
  /** Every source is immutable (nothing of them is stat'ed to tell a summary still holds). */
  readonly immutable: boolean;
  /** The sources, lowest rank last; made on the first call. */
  list(): readonly ComponentSource[];
}

export interface ComponentSource {
  scope: SourceScope;
  /** Plugin name for plugin sources: every item is named `<namespace>:<name>`. */
  namespace?: string;
  /** The folder the source is rooted at: a `.clew`/`.claude` folder, or the plugin root. */
  root: string;
  /** Nested sources: the subdirectory relative to the working directory, e.g. `apps/web`. */
  qualifier?: string;
  /**
   * Folders holding `<name>/SKILL.md` entries. For plugin sources a folder that itself holds a
   * `SKILL.md` is one skill (plugins.md §4, `"skills": ["./skills/xlsx"]`, root SKILL.md).
   */
  skills: string[];
  /** Folders scanned recursively for `*.md` files and `<name>/SKILL.md` folders, or single `.md` files. */
  commands: string[];
  /** Folders scanned recursively for `*.md` agent files, or single `.md` files. */
  agents: string[];
  /** Plugin sources: the value of `${CLAUDE_PLUGIN_DATA}` (the plugin loader decides it). */
  pluginData?: string;
  /**
   * The folder never changes once written (a versioned plugin install: an update is a new
   * folder). A warm start then takes the listing from the index cache without scanning it.
   */
  immutable?: boolean;
  /**
   * Short hash of what names the source (scope, namespace, root, folders) for cache keys, set on
   * immutable plugin sources when they are made and stored with them (sourceIdentity computes it
   * for the others), so a start with hundreds of plugins does not serialize each source to key its caches.
   */
  identity?: string;
  /**
   * Asked before any file of the source is read: a reason when none may be (a plugin whose folder
   * changed since install). Never part of a cache key.
   */
  guard?: () => string | undefined;
}

export type ProblemSeverity = "error" | "warning" | "info";

export type ProblemCode =
  | "unreadable"
  | "yaml-error"
  | "frontmatter-not-map"
  | "frontmatter-unclosed"
  | "no-frontmatter"
  | "invalid-field"
  | "ignored-field"
  | "misspelled-field"
  | "description-long"
  | "duplicate-name"
  | "shadowed"
  | "agent-skipped"
  | "agent-no-name"
  | "skills-dir-plugin";

/** One finding, for `clew doctor` and `/skills`: the file, where in it, what is wrong, what to do. */
export interface ExtensionProblem {
  code: ProblemCode;
  severity: ProblemSeverity;
  file: string;
  line?: number;
  field?: string;
  message: string;
}

export type Effort = "low" | "medium" | "high" | "xhigh" | "max";

/** Normalised frontmatter of a SKILL.md or a command file (spec A.2, B). */
export interface SkillMeta {
  /** Frontmatter `name` as written (skills only; command files ignore it). */
  declaredName?: string;
  /** Frontmatter `description`, else the first paragraph of the body, else "". */
  description: string;
  descriptionFrom: "frontmatter" | "body" | "none";
  whenToUse?: string;
  argumentHint?: string;
  /** Named positional arguments: `arguments: [issue, branch]` makes `$issue`, `$branch`. */
  argumentNames: string[];
  modelInvocable: boolean;
  userInvocable: boolean;
  /** Permission rules granted for the rest of the invoking turn (rule syntax, legacy names mapped). */
  allowedTools: string[];
  disallowedTools: string[];
  model?: string;
  effort?: Effort;
  context?: "fork";
  agent?: string;
  background: boolean;
  hooks?: Record<string, unknown>;
  /** Globs that make the model load the skill when working with matching files (skills only). */
  paths: string[];
  shell: "bash" | "powershell";
  metadata?: Record<string, unknown>;
  license?: string;
  compatibility?: string;
}

export type PermissionMode = "default" | "acceptEdits" | "auto" | "dontAsk" | "bypassPermissions" | "plan";

/** An MCP server an agent uses: a configured server by name, or an inline definition. */
export type AgentMcpServer = { name: string } | { name: string; config: Record<string, unknown> };

/** Normalised frontmatter of an agent file (spec C.3). */
export interface AgentMeta {
  /** Frontmatter `name` as written. */
  declaredName?: string;
  description: string;
  /** Allowlist; undefined = inherit every tool available to subagents. */
  tools?: string[];
  disallowedTools: string[];
  /** Undefined = inherit the parent's model. */
  model?: string;
  permissionMode?: PermissionMode;
  maxTurns?: number;
  skills: string[];
  mcpServers: AgentMcpServer[];
  hooks?: Record<string, unknown>;
  memory?: "user" | "project" | "local";
  background: boolean;
  effort?: Effort;
  isolation?: "worktree";
  color?: string;
  initialPrompt?: string;
}

/** The part of an item that says where it came from. */
export interface Placement {
  source: ComponentSource;
  /** The file the item was read from (SKILL.md or the `.md` file). */
  file: string;
  /** `${CLAUDE_SKILL_DIR}`: the skill's folder, or the folder holding a command file. */
  dir: string;
  /** Path-derived id inside the scanned folder: skill = its folder, file = path with `/` → `:`. */
  id: string;
  /** Other names the item answers to (`frontend:component`, `acme:<folder>`, `apps/web:deploy`). */
  aliases: string[];
  /** What the `/` menu shows beside the name: `project`, `user:frontend`, `plugin:acme`. */
  label: string;
  /** Problems of this file only. */
  problems: ExtensionProblem[];
}

/** A skill or a command: one mechanism since commands merged into skills (spec B). */
export interface Invocable extends SkillMeta, Placement {
  kind: "skill" | "command";
  /** What `/name` and the Skill tool's `skill` take: `deploy`, `acme:review`, `acme:ops:deploy`. */
  name: string;
  /** Frontmatter `name` when set, else `name`. */
  displayName: string;
  /** Set by the user's `skillOverrides` (overrides.ts): how it is offered instead of as written. */
  override?: "name-only" | "user-invocable-only" | "off";
}

export interface AgentDefinition extends AgentMeta, Omit<Placement, "dir"> {
  /** Identity (`subagent_type`, `agent_type` in hooks): `reviewer`, `acme:reviewer`, `acme:review:security`. */
  name: string;
  /** `--agents` definitions carry their system prompt inline; file agents load it on demand. */
  prompt?: string;
}
