/**
 * The shapes the plugin layer shares: marketplace entries and their source forms (marketplaces.md
 * §3–4), a plugin folder as loaded (plugins.md §2–8), problems, and install records. Plain data:
 * loading never throws because one plugin or entry is bad, it reports.
 */

export type ProblemLevel = "error" | "warning" | "note";

/** One finding, with the same `code`s as the corpus's EXPECTED.json where one applies. */
export interface PluginProblem {
  level: ProblemLevel;
  code: string;
  /** Absolute path of the file the finding is about. */
  file: string;
  /** `plugins[3].source`, `hooks.PreToolUse[0]`, `name` … when it is about one field. */
  field?: string;
  line?: number;
  /** A full sentence naming the thing and what to do. */
  message: string;
}

/** Where a marketplace entry's plugin comes from (marketplaces.md §4). */
export type PluginSource =
  | { kind: "relative"; path: string }
  | { kind: "github"; repo: string; ref?: string; sha?: string; path?: string }
  | { kind: "url"; url: string; ref?: string; sha?: string; path?: string }
  | { kind: "git-subdir"; url: string; path: string; ref?: string; sha?: string }
  | { kind: "npm"; package: string; version?: string; registry?: string }
  | { kind: "archive"; url: string; sha256?: string }
  | { kind: "command"; command: string; raw: Record<string, unknown> }
  | { kind: "unknown"; raw: unknown };

export interface MarketplaceEntry {
  index: number;
  name: string;
  source: PluginSource;
  /** `strict` as written (null: not set; the default is true). */
  strict: boolean | null;
  version?: string;
  description?: string;
  /** The entry itself as written: with `strict: false` it is the manifest. */
  raw: Record<string, unknown>;
}

export interface MarketplaceFile {
  /** The marketplace's own `name`: its id. */
  name: string;
  ownerName?: string;
  description?: string;
  /** Absolute path of `.claude-plugin/marketplace.json`. */
  file: string;
  /** The folder relative sources resolve against (the marketplace root, or `metadata.pluginRoot`). */
  root: string;
  entries: MarketplaceEntry[];
  /** `renames`: old plugin name → new. */
  renames: Record<string, string>;
  raw: Record<string, unknown>;
}

/** One plugin folder as loaded: what it contributes, by kind, with every problem found. */
export interface LoadedPlugin {
  /** The plugin's name (the marketplace entry's name when there is one; else the manifest's). */
  name: string;
  /** `name@marketplace`, `name@inline` for --plugin-dir. */
  id: string;
  root: string;
  /**
   * Set when the plugin cannot load at all (source folder missing, plugin.json unreadable,
   * conflicting manifests): the reason, one sentence. Components are then empty.
   */
  invalid?: string;
  /** `.claude-plugin/plugin.json` when the folder has one (with strict: false the entry is `manifest`). */
  manifestFile?: string;
  /** `displayName` from plugin.json or the entry: a UI label only. */
  displayName?: string;
  /** The manifest as written (plugin.json, or the entry for strict: false); undefined: none. */
  manifest?: Record<string, unknown>;
  version?: string;
  description?: string;
  /**
   * What to hand `pluginSource()` (src/extensions/sources.ts), after the path rules of plugins.md §4:
   * `skills` are the listed skill folders (added to the default `skills/`, which pluginSource scans
   * itself unless `skillsReplaceDefault`; the root when it is a single-skill plugin); `commands`,
   * `agents` and `outputStyles` are the complete lists (the default folder when no field is set).
   * All absolute; paths that do not exist are reported and left out.
   */
  components: {
    skills: string[];
    /** Whether listed skills paths replace the default `skills/` (marketplace-root plugins, §5.3). */
    skillsReplaceDefault: boolean;
    commands: string[];
    agents: string[];
    outputStyles: string[];
  };
  /** Hook configurations in load order: `hooks/hooks.json`, manifest `hooks` (files or inline). */
  hooks: Array<{ file: string; hooks: Record<string, unknown> }>;
  /** MCP server definitions by the plugin's own server name (bare and wrapped `.mcp.json`, inline). */
  mcpServers: Record<string, { file: string; config: unknown }>;
  /** LSP server definitions by name (recorded and listed; not run yet). */
  lspServers: Record<string, { file: string; config: unknown }>;
  /** `bin/` when it exists: put on the Bash tool's PATH while the plugin is enabled. */
  binDir?: string;
  /** `dependencies` as written (names or `name@marketplace`, with optional version ranges). */
  dependencies: string[];
  problems: PluginProblem[];
}

export type InstallScope = "user" | "project" | "local";

/** One install of a plugin at one scope (clew's `installed_plugins.json`, Claude Code's v2 shape). */
export interface InstallRecord {
  scope: InstallScope;
  /** Project and local installs: the project they belong to. */
  projectPath?: string;
  installPath: string;
  version: string;
  installedAt: string;
  lastUpdated: string;
  gitCommitSha?: string;
  /** sha256 over the canonical listing of the installed tree (clew.lock, tamper checks). */
  contentHash: string;
  source: PluginSource;
  marketplace: string;
}
