/**
 * `clew plugin validate`: a marketplace or plugin folder, checked offline (plugins.md §14,
 * marketplaces.md §9). The plugin layer reads catalogs, manifests, hooks and servers; the
 * extensions layer scans the component folders it decides (the same scanner the session uses),
 * so the ids reported here are the ids a session loads. The report's per-plugin fields carry the
 * names of the corpus's EXPECTED.json, so CI checks and the conformance test read it directly.
 */
import { readdirSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { isRemote } from "../plugins/entry-source.ts";
import { loadPlugin } from "../plugins/load.ts";
import { MANIFEST_PATH } from "../plugins/manifest.ts";
import { MARKETPLACE_PATH, readMarketplace } from "../plugins/marketplace-file.ts";
import { exists, isDirectory } from "../plugins/plugin-files.ts";
import { countHandlers } from "../plugins/plugin-hooks.ts";
import type { LoadedPlugin, MarketplaceEntry, PluginProblem, PluginSource, ProblemLevel } from "../plugins/types.ts";
import { componentIssues, outputStyleIds, scanComponents } from "./plugin-components.ts";

export interface ValidationIssue {
  level: ProblemLevel;
  code: string;
  message: string;
  /** Relative to the validated folder (`/`-separated); `.` for the folder itself. */
  file: string;
  field?: string;
  line?: number;
}

export type PluginStatus = "loaded" | "remote" | "invalid";

export interface PluginReport {
  /** Position in the marketplace's `plugins` list (marketplace runs only). */
  index?: number;
  name: string;
  displayName?: string;
  /** `relative`, `github`, `url`, `git-subdir`, `npm`, `archive`, `command`, or the unsupported type as written. */
  sourceKind: PluginSource["kind"] | (string & {});
  /** The entry's `source` exactly as written (a `./path`, or the object with repo/url, path, ref, sha). */
  source: unknown;
  status: PluginStatus;
  invalidReason?: string;
  /** `strict` as written; null when not set (default true). */
  strict: boolean | null;
  hasManifest: boolean;
  manifestName?: string;
  /** The plugin folder relative to the validated folder (loaded plugins). */
  root?: string;
  version?: string;
  skills: string[];
  commands: string[];
  agents: string[];
  outputStyles: string[];
  hookEvents: Record<string, number>;
  hookHandlers: number;
  mcpServers: string[];
  lspServers: string[];
  bin: boolean;
  dependencies: string[];
  issues: ValidationIssue[];
}

export interface MarketplaceReport {
  name: string;
  ownerName?: string;
  description?: string;
  file: string;
  /** The catalog itself reads: JSON object, name, owner, plugins list (entries may still be invalid). */
  valid: boolean;
  pluginCount: number;
  /** Other marketplace.json files below the root: not read when the folder is added as a marketplace. */
  nestedMarketplaces: string[];
  issues: ValidationIssue[];
  totals: Record<"loaded" | "remote" | "invalid" | "skills" | "commands" | "agents" | "hookHandlers" | "mcpServers" | "lspServers", number>;
  plugins: PluginReport[];
}

export interface ValidationReport {
  path: string;
  kind: "marketplace" | "plugin" | "none";
  strict: boolean;
  /** No errors (with strict: no warnings either). */
  passed: boolean;
  counts: Record<ProblemLevel, number>;
  marketplace?: MarketplaceReport;
  plugin?: PluginReport;
  /** Findings about the path itself (nothing to validate there). */
  issues: ValidationIssue[];
}

function toIssue(problem: PluginProblem, base: string): ValidationIssue {
  const rel = relative(base, problem.file).split(sep).join("/") || ".";
  return {
    level: problem.level,
    code: problem.code,
    message: problem.message,
    file: rel,
    ...(problem.field === undefined ? {} : { field: problem.field }),
    ...(problem.line === undefined ? {} : { line: problem.line }),
  };
}

const SKIP_FOLDERS = new Set([".git", "node_modules"]);

/** marketplace.json files below the root (not the root's own), for the report; never followed. */
function nestedMarketplaces(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 12) return;
    let names: import("node:fs").Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const item of names) {
      if (!item.isDirectory() || SKIP_FOLDERS.has(item.name)) continue;
      const path = join(dir, item.name);
      if (item.name === ".claude-plugin" && dir !== root && exists(join(path, "marketplace.json"))) found.push(relative(root, join(path, "marketplace.json")).split(sep).join("/"));
      walk(path, depth + 1);
    }
  };
  walk(root, 0);
  return found.sort();
}

function emptyReport(base: Omit<PluginReport, "skills" | "commands" | "agents" | "outputStyles" | "hookEvents" | "hookHandlers" | "mcpServers" | "lspServers" | "bin" | "dependencies">): PluginReport {
  return { ...base, skills: [], commands: [], agents: [], outputStyles: [], hookEvents: {}, hookHandlers: 0, mcpServers: [], lspServers: [], bin: false, dependencies: [] };
}

/** A loaded plugin folder: the loader's findings plus the extensions layer's scan of its components. */
async function pluginReport(plugin: LoadedPlugin, head: Pick<PluginReport, "name" | "sourceKind" | "source" | "strict"> & { index?: number }, base: string, extraIssues: ValidationIssue[]): Promise<PluginReport> {
  const common = {
    ...(head.index === undefined ? {} : { index: head.index }),
    name: head.name,
    ...(plugin.displayName === undefined ? {} : { displayName: plugin.displayName }),
    sourceKind: head.sourceKind,
    source: head.source,
    strict: head.strict,
    hasManifest: plugin.manifestFile !== undefined,
    ...(typeof plugin.manifest?.name === "string" && plugin.manifestFile !== undefined ? { manifestName: plugin.manifest.name } : {}),
  };
  const issues = [...extraIssues, ...plugin.problems.map((problem) => toIssue(problem, base))];
  if (plugin.invalid !== undefined) return emptyReport({ ...common, status: "invalid", invalidReason: plugin.invalid, issues });
  const scanned = await scanComponents(plugin);
  issues.push(...componentIssues(scanned).map((problem) => toIssue(problem, base)));
  const hookEvents: Record<string, number> = {};
  for (const config of plugin.hooks) for (const [event, count] of Object.entries(countHandlers(config.hooks))) hookEvents[event] = (hookEvents[event] ?? 0) + count;
  return {
    ...common,
    status: "loaded",
    root: relative(base, plugin.root).split(sep).join("/") || ".",
    ...(plugin.version === undefined ? {} : { version: plugin.version }),
    skills: scanned.ids.skills,
    commands: scanned.ids.commands,
    agents: scanned.ids.agents,
    outputStyles: outputStyleIds(plugin.components.outputStyles),
    hookEvents,
    hookHandlers: Object.values(hookEvents).reduce((sum, count) => sum + count, 0),
    mcpServers: Object.keys(plugin.mcpServers),
    lspServers: Object.keys(plugin.lspServers),
    bin: plugin.binDir !== undefined,
    dependencies: plugin.dependencies,
    issues,
  };
}

/** The source form as written, also for a source that cannot be used (a `./` path that escapes is still "relative"). */
function writtenKind(entry: MarketplaceEntry): PluginReport["sourceKind"] {
  if (entry.source.kind !== "unknown") return entry.source.kind;
  const raw = entry.raw.source;
  if (typeof raw === "string") return "relative";
  const kind = typeof raw === "object" && raw !== null ? (raw as { source?: unknown }).source : undefined;
  return typeof kind === "string" ? kind : "unknown";
}

async function entryReport(entry: MarketplaceEntry, marketplace: { name: string; root: string }, entryIssues: ValidationIssue[]): Promise<PluginReport> {
  const head = { index: entry.index, name: entry.name, sourceKind: writtenKind(entry), source: entry.raw.source, strict: entry.strict };
  const displayName = typeof entry.raw.displayName === "string" ? { displayName: entry.raw.displayName } : {};
  if (entry.source.kind === "unknown") {
    const reason = entryIssues.find((issue) => issue.code === "entry-invalid")?.message.replace(/^plugins\[\d+\]( "[^"]*")?: /, "") ?? "the entry cannot be read";
    return emptyReport({ ...head, ...displayName, status: "invalid", invalidReason: reason, hasManifest: false, issues: entryIssues });
  }
  if (isRemote(entry.source)) return emptyReport({ ...head, ...displayName, status: "remote", hasManifest: false, issues: entryIssues });
  const root = entry.source.kind === "relative" ? join(marketplace.root, entry.source.path) : marketplace.root;
  const plugin = loadPlugin({ root, entry, marketplace: marketplace.name, marketplaceRoot: marketplace.root });
  return pluginReport(plugin, head, marketplace.root, entryIssues);
}

function countLevels(issues: readonly ValidationIssue[]): Record<ProblemLevel, number> {
  const counts: Record<ProblemLevel, number> = { error: 0, warning: 0, note: 0 };
  for (const issue of issues) counts[issue.level] += 1;
  return counts;
}

function finish(report: Omit<ValidationReport, "passed" | "counts">, all: readonly ValidationIssue[]): ValidationReport {
  const counts = countLevels(all);
  const passed = counts.error === 0 && (!report.strict || counts.warning === 0);
  return { ...report, passed, counts };
}

async function validateMarketplace(root: string, strict: boolean): Promise<ValidationReport> {
  const { marketplace, problems } = readMarketplace(root);
  const file = MARKETPLACE_PATH;
  const byEntry = new Map<number, ValidationIssue[]>();
  const own: ValidationIssue[] = [];
  for (const problem of problems) {
    const index = /^plugins\[(\d+)\]/.exec(problem.field ?? "")?.[1];
    const issue = toIssue(problem, root);
    if (index === undefined) own.push(issue);
    else byEntry.set(Number(index), [...(byEntry.get(Number(index)) ?? []), issue]);
  }
  const totals = { loaded: 0, remote: 0, invalid: 0, skills: 0, commands: 0, agents: 0, hookHandlers: 0, mcpServers: 0, lspServers: 0 };
  if (marketplace === undefined) {
    const report: MarketplaceReport = { name: "", file, valid: false, pluginCount: 0, nestedMarketplaces: [], issues: own, totals, plugins: [] };
    return finish({ path: root, kind: "marketplace", strict, marketplace: report, issues: [] }, own);
  }
  const plugins: PluginReport[] = [];
  for (const entry of marketplace.entries) plugins.push(await entryReport(entry, { name: marketplace.name, root }, byEntry.get(entry.index) ?? []));
  for (const plugin of plugins) {
    totals[plugin.status] += 1;
    totals.skills += plugin.skills.length;
    totals.commands += plugin.commands.length;
    totals.agents += plugin.agents.length;
    totals.hookHandlers += plugin.hookHandlers;
    totals.mcpServers += plugin.mcpServers.length;
    totals.lspServers += plugin.lspServers.length;
  }
  const report: MarketplaceReport = {
    name: marketplace.name,
    ...(marketplace.ownerName === undefined ? {} : { ownerName: marketplace.ownerName }),
    ...(marketplace.description === undefined ? {} : { description: marketplace.description }),
    file,
    valid: !own.some((issue) => issue.level === "error"),
    pluginCount: marketplace.entries.length,
    nestedMarketplaces: nestedMarketplaces(root),
    issues: own,
    totals,
    plugins,
  };
  return finish({ path: root, kind: "marketplace", strict, marketplace: report, issues: [] }, [...own, ...plugins.flatMap((plugin) => plugin.issues)]);
}

/**
 * Validates a folder: its marketplace when it has `.claude-plugin/marketplace.json` (preferred,
 * plugins.md §14), else the plugin (with or without plugin.json, as long as it has components or a
 * `.claude/` folder). Never throws for bad content; everything wrong is an issue in the report.
 */
export async function validatePath(path: string, options: { strict: boolean }): Promise<ValidationReport> {
  const root = resolve(path);
  if (exists(join(root, MARKETPLACE_PATH))) return validateMarketplace(root, options.strict);
  const hasComponents = ["skills", "commands", "agents", "hooks", "SKILL.md", ".mcp.json", ".lsp.json"].some((name) => exists(join(root, name)));
  const pluginRoot = !exists(join(root, MANIFEST_PATH)) && !hasComponents && isDirectory(join(root, ".claude")) ? join(root, ".claude") : root;
  if (!isDirectory(root) || (pluginRoot === root && !exists(join(root, MANIFEST_PATH)) && !hasComponents)) {
    const issue: ValidationIssue = {
      level: "error",
      code: "no-manifest",
      message: isDirectory(root)
        ? "No manifest found in directory. Expected .claude-plugin/marketplace.json or .claude-plugin/plugin.json (or skills/, commands/, agents/ folders)."
        : `${root} is not a folder; give the plugin or marketplace folder.`,
      file: ".",
    };
    return finish({ path: root, kind: "none", strict: options.strict, issues: [issue] }, [issue]);
  }
  const plugin = loadPlugin({ root: pluginRoot });
  const report = await pluginReport(plugin, { name: plugin.name, sourceKind: "relative", source: ".", strict: null }, root, []);
  return finish({ path: root, kind: "plugin", strict: options.strict, plugin: report, issues: [] }, report.issues);
}
