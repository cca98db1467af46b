/**
 * One plugin folder as loaded (plugins.md §2–8, marketplaces.md §5): manifest, component folders,
 * hooks, MCP and LSP servers, `bin/`, dependencies — every problem reported with its file and
 * field, never thrown. A marketplace entry joins in as the manifest's other half: with `strict`
 * (the default) its component fields merge on top of plugin.json; with `strict: false` it is the
 * definition, and a plugin.json that declares components too is a conflict (the plugin is invalid).
 * Only the folders are decided here; the extensions layer scans them (pluginSource).
 */
import { basename, join, relative, resolve } from "node:path";
import { MARKETPLACE_PATH } from "./marketplace-file.ts";
import { checkManifest, declaresComponents, MANIFEST_PATH, readManifest } from "./manifest.ts";
import { exists, isDirectory, isObject, ProblemList } from "./plugin-files.ts";
import { readPluginHooks } from "./plugin-hooks.ts";
import { componentPaths, type Declared } from "./plugin-paths.ts";
import { readPluginServers } from "./plugin-servers.ts";
import type { LoadedPlugin, MarketplaceEntry } from "./types.ts";

export interface LoadPluginInput {
  /** The plugin folder (install folder, `--plugin-dir`, or a relative source resolved in its marketplace). */
  root: string;
  /** The name to use when neither the entry nor plugin.json gives one (default: the folder's name). */
  name?: string;
  /** The marketplace's name, for the id (`name@marketplace`); default `inline`. */
  marketplace?: string;
  entry?: MarketplaceEntry;
  /** The marketplace root (holds `.claude-plugin/marketplace.json`): where entry problems point. */
  marketplaceRoot?: string;
}

const EMPTY_COMPONENTS: LoadedPlugin["components"] = { skills: [], skillsReplaceDefault: false, commands: [], agents: [], outputStyles: [] };

/** `dependencies` items as `name`, `name@marketplace`, with ` <range>` when a version is given. */
function dependencyList(values: readonly unknown[], file: string, label: string, problems: ProblemList): string[] {
  const list: string[] = [];
  values.forEach((item, index) => {
    if (typeof item === "string" && item !== "") list.push(item);
    else if (isObject(item) && typeof item.name === "string") {
      const at = typeof item.marketplace === "string" ? `${item.name}@${item.marketplace}` : item.name;
      list.push(typeof item.version === "string" ? `${at} ${item.version}` : at);
    } else {
      problems.add("error", "dependency-invalid", file, `${label}: dependencies[${index}] must be a plugin name or {"name": "…", "version"?: "…"}; it is ignored.`, `dependencies[${index}]`);
    }
  });
  return list;
}

function pick(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function loadPlugin(input: LoadPluginInput): LoadedPlugin {
  const root = resolve(input.root);
  const entry = input.entry;
  const marketplaceFile = input.marketplaceRoot === undefined ? undefined : join(resolve(input.marketplaceRoot), MARKETPLACE_PATH);
  const entryFile = marketplaceFile ?? join(root, MANIFEST_PATH);
  const problems = new ProblemList();
  const marketplace = input.marketplace ?? "inline";
  const fallbackName = entry?.name ?? input.name ?? basename(root);
  const label = entry === undefined ? `plugin "${fallbackName}"` : `plugins[${entry.index}] "${entry.name}"`;

  const base = (name: string): LoadedPlugin => ({
    name,
    id: `${name}@${marketplace}`,
    root,
    components: EMPTY_COMPONENTS,
    hooks: [],
    mcpServers: {},
    lspServers: {},
    dependencies: [],
    problems: problems.items,
  });
  const invalid = (name: string, reason: string, file: string, code: string, field?: string): LoadedPlugin => {
    problems.add("error", code, file, `${label}: ${reason}`, field);
    return { ...base(name), invalid: reason };
  };

  try {
    if (!isDirectory(root)) {
      const shown = input.marketplaceRoot === undefined ? root : relative(resolve(input.marketplaceRoot), root) || ".";
      const why = exists(root) ? "source is not a directory" : "source directory not found";
      return invalid(fallbackName, `${why}: ${shown}`, entryFile, "entry-invalid", entry === undefined ? undefined : `plugins[${entry.index}].source`);
    }

    const read = readManifest(root);
    if (read.kind === "invalid") return { ...invalid(fallbackName, read.message, read.file, "manifest-json-error"), manifestFile: read.file };
    const manifest = read.kind === "ok" ? checkManifest(read.raw, read.file, problems) : undefined;
    const manifestFile = read.kind === "ok" ? read.file : undefined;
    const entryRaw = entry?.raw ?? {};
    const strictFalse = entry?.strict === false;

    const name = entry?.name ?? pick(manifest?.name) ?? fallbackName;
    if (strictFalse && manifest !== undefined && declaresComponents(manifest) && declaresComponents(entryRaw)) {
      const reason = `has conflicting manifests: both plugin.json and the marketplace entry (strict: false) specify components. Move the components to one of them.`;
      return { ...invalid(name, reason, manifestFile ?? entryFile, "conflicting-manifests"), ...(manifestFile === undefined ? {} : { manifestFile }) };
    }

    // Declarations in load order: plugin.json first, the entry on top (both with the file they sit in).
    const declared = (field: string): Declared[] => {
      const list: Declared[] = [];
      if (manifest?.[field] !== undefined && manifestFile !== undefined) list.push({ value: manifest[field], file: manifestFile, field });
      if (entry !== undefined && entryRaw[field] !== undefined) list.push({ value: entryRaw[field], file: entryFile, field: `plugins[${entry.index}].${field}` });
      return list;
    };

    const source = entry?.source;
    const marketplaceRootSource = source?.kind === "relative" && source.path === ".";
    const components = componentPaths(
      { root, label, marketplaceRootSource, skills: declared("skills"), commands: declared("commands"), agents: declared("agents"), outputStyles: declared("outputStyles") },
      problems,
    );
    const hooks = readPluginHooks({ root, label, declared: declared("hooks") }, problems);
    const mcpServers = readPluginServers({ kind: "mcp", root, label, declared: declared("mcpServers") }, problems);
    const lspServers = readPluginServers({ kind: "lsp", root, label, declared: declared("lspServers") }, problems);

    const dependencies = declared("dependencies").flatMap(({ value, file }) =>
      Array.isArray(value) ? dependencyList(value, file, label, problems) : (problems.add("error", "manifest-invalid-field", file, `${label}: "dependencies" must be a list; it is ignored.`, "dependencies"), []),
    );

    // marketplaces.md §3 says validate warns when the entry's version differs from plugin.json's;
    // the corpus (EXPECTED.json, real files win) reports nothing for the 12 entries where they
    // differ, and plugin.json wins silently (§5.2) — so no finding.
    const manifestVersion = pick(manifest?.version);
    if (exists(join(root, "CLAUDE.md"))) problems.add("warning", "root-claude-md", join(root, "CLAUDE.md"), `${label}: CLAUDE.md at the plugin root is not loaded as context; move its guidance into a skill or an agent.`);
    for (const folder of ["skills", "commands", "agents", "hooks"]) {
      if (isDirectory(join(root, ".claude-plugin", folder))) {
        problems.add("warning", "component-in-manifest-folder", join(root, ".claude-plugin", folder), `${label}: .claude-plugin/${folder}/ is never read; move it to the plugin root (only plugin.json belongs in .claude-plugin/).`);
      }
    }

    const version = manifestVersion ?? entry?.version;
    const description = pick(manifest?.description) ?? entry?.description;
    const displayName = pick(entryRaw.displayName) ?? pick(manifest?.displayName);
    const definition = strictFalse ? entryRaw : read.kind === "ok" ? read.raw : undefined;
    return {
      ...base(name),
      ...(manifestFile === undefined ? {} : { manifestFile }),
      ...(displayName === undefined ? {} : { displayName }),
      ...(definition === undefined ? {} : { manifest: definition }),
      ...(version === undefined ? {} : { version }),
      ...(description === undefined ? {} : { description }),
      components,
      hooks: hooks.configs,
      mcpServers,
      lspServers,
      ...(isDirectory(join(root, "bin")) ? { binDir: join(root, "bin") } : {}),
      dependencies,
    };
  } catch (error) {
    // Unexpected I/O trouble (a folder vanishing mid-read): this plugin is reported, the caller carries on.
    return invalid(fallbackName, `could not be read (${error instanceof Error ? error.message : String(error)}); check the folder's permissions.`, entryFile, "plugin-unreadable");
  }
}
