/**
 * Which settings files exist for this run and in what order, and reading them safely. Layers are
 * listed strongest first: managed, command line, local project, shared project, user.
 *
 * - Managed: the first directory of `managedDirs` (from paths.ts: /etc/clew, then
 *   /etc/claude-code) that holds `managed-settings.json` or a `managed-settings.d/*.json` is used
 *   alone, like Claude Code's "first managed source that delivers wins". Inside it the main file
 *   is weakest and drop-ins follow in alphabetical order, later ones stronger.
 * - Command line: per-key flags (`--model`, …) above `--settings`.
 * - Local and shared project: `.clew/` above `.claude/` in the start directory (both read).
 * - User: `<configDir>/settings.json` only; `~/.claude/settings.json` is Claude Code's user
 *   state and stays separate (ARCHITECTURE.md, "Compatibility promises").
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { FatalError } from "../util/errors.ts";
import { FILE_SCOPES, type FileScope, type SettingsScope } from "./types.ts";

export const MAX_SETTINGS_BYTES = 2 * 1024 * 1024;

/** The settings-relevant part of the parsed command line (a structural subset of CliOptions). */
export interface CliSettingsInput {
  settings?: string | undefined;
  settingSources?: readonly string[] | undefined;
  model?: string | undefined;
  /**
   * `--effort`: read by the session, not a settings layer (CLAUDE_CODE_EFFORT_LEVEL outranks it,
   * and `max` is not a value the `effortLevel` setting takes).
   */
  effort?: "low" | "medium" | "high" | "xhigh" | "max" | undefined;
  permissionMode?: string | undefined;
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  addDirs?: readonly string[];
}

export interface SourceOptions {
  /** Absolute start directory: project files are read from here, no walk-up. */
  startDir: string;
  configDir: string;
  managedDirs: readonly string[];
  cli?: CliSettingsInput;
}

export type LayerScope = Exclude<SettingsScope, "default">;

export interface LayerSpec {
  scope: LayerScope;
  /** Absolute path of a settings file. */
  file?: string;
  /** The flag a command-line layer came from. */
  flag?: string;
  /** What a rule's single leading `/` means for rules from this layer (spec §4.4). */
  root: string;
  /** Inline JSON text (`--settings '{…}'`) or settings built from flags. */
  inline?: string | Record<string, unknown>;
  /** A missing file is an error only when the user named it (`--settings path`). */
  required?: boolean;
}

export type ReadResult = { kind: "missing" } | { kind: "text"; text: string } | { kind: "error"; message: string };

function jsonFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json") && !name.startsWith("."))
      .sort()
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** The managed files of the chosen directory, weakest first. */
export function managedFiles(managedDirs: readonly string[]): string[] {
  for (const dir of managedDirs) {
    const main = join(dir, "managed-settings.json");
    const files = [...(existsSync(main) ? [main] : []), ...jsonFilesIn(join(dir, "managed-settings.d"))];
    if (files.length > 0) return files;
  }
  return [];
}

export function parseSettingSources(values: readonly string[] | undefined): FileScope[] {
  if (values === undefined) return [...FILE_SCOPES];
  const scopes: FileScope[] = [];
  for (const value of values) {
    if (!(FILE_SCOPES as readonly string[]).includes(value)) {
      throw new FatalError(
        "usage",
        `error: --setting-sources: unknown source '${value}'. Allowed values are ${FILE_SCOPES.join(", ")}.`,
        "Managed settings and --settings are always read.",
      );
    }
    scopes.push(value as FileScope);
  }
  return scopes;
}

function cliLayers(cli: CliSettingsInput, startDir: string): LayerSpec[] {
  const layers: LayerSpec[] = [];
  const flag = (name: string, data: Record<string, unknown>) => layers.push({ scope: "cli", flag: name, root: startDir, inline: data });
  if (cli.model !== undefined) flag("--model", { model: cli.model });
  if (cli.permissionMode !== undefined) flag("--permission-mode", { permissions: { defaultMode: cli.permissionMode } });
  if (cli.allowedTools?.length) flag("--allowedTools", { permissions: { allow: [...cli.allowedTools] } });
  if (cli.disallowedTools?.length) flag("--disallowedTools", { permissions: { deny: [...cli.disallowedTools] } });
  if (cli.addDirs?.length) {
    flag("--add-dir", { permissions: { additionalDirectories: cli.addDirs.map((dir) => resolve(startDir, dir)) } });
  }
  const settings = cli.settings;
  if (settings !== undefined) {
    if (settings.trimStart().startsWith("{")) layers.push({ scope: "cli", flag: "--settings", root: startDir, inline: settings });
    else {
      const file = isAbsolute(settings) ? settings : resolve(startDir, settings);
      layers.push({ scope: "cli", file, flag: "--settings", root: dirname(file), required: true });
    }
  }
  return layers;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/** Every layer for this run, strongest first (files may not exist; reading decides). */
export function settingsLayers(options: SourceOptions): LayerSpec[] {
  const { startDir, configDir } = options;
  const scopes = parseSettingSources(options.cli?.settingSources);
  const layers: LayerSpec[] = managedFiles(options.managedDirs)
    .reverse()
    .map((file) => ({ scope: "managed" as const, file, root: dirname(file) }));
  layers.push(...cliLayers(options.cli ?? {}, startDir));
  const userFile = join(configDir, "settings.json");
  // Started in the home directory, `.clew/settings.json` is the user file: read it once, as user.
  const project = (file: string) => !(scopes.includes("user") && sameFile(file, userFile));
  if (scopes.includes("local")) {
    for (const dir of [".clew", ".claude"]) {
      const file = join(startDir, dir, "settings.local.json");
      if (project(file)) layers.push({ scope: "local", file, root: startDir });
    }
  }
  if (scopes.includes("project")) {
    for (const dir of [".clew", ".claude"]) {
      const file = join(startDir, dir, "settings.json");
      if (project(file)) layers.push({ scope: "project", file, root: startDir });
    }
  }
  if (scopes.includes("user")) layers.push({ scope: "user", file: userFile, root: configDir });
  return layers;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

export function readSettingsFile(file: string): ReadResult {
  try {
    const stats = statSync(file);
    if (!stats.isFile()) return { kind: "error", message: "is not a regular file" };
    if (stats.size > MAX_SETTINGS_BYTES) return { kind: "error", message: `is larger than 2 MiB (${stats.size} bytes)` };
    return { kind: "text", text: readFileSync(file, "utf8") };
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "error", message: `cannot be read (${code ?? String(error)})` };
  }
}
