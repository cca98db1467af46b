/**
 * Instruction files ("memory"): what the model is told about the user and the project before the
 * first prompt, and lazily as it reads into subdirectories.
 *
 * Load order, broadest first (later files win on conflict, so the most specific comes last):
 * 1. User: `<config dir>/AGENTS.md`, else `<config dir>/CLAUDE.md`; then `<config dir>/rules/**.md`.
 *    `~/.claude/CLAUDE.md` is not read: clew's user state is kept apart from Claude Code's.
 * 2. Project: each directory from the repository root (the filesystem root outside a repository)
 *    down to the working directory: `AGENTS.md`, else `CLAUDE.md`; then `.clew/AGENTS.md`, else
 *    `.clew/CLAUDE.md`, else `.claude/CLAUDE.md`; then unconditional rules from `.clew/rules/` and
 *    `.claude/rules/` (`.clew/` wins a name clash); then `AGENTS.local.md`, else `CLAUDE.local.md`.
 *    In the home directory (and the directory holding the config dir) the `.clew/`/`.claude/`
 *    entries are skipped: there they are user configuration, not a project's.
 * 3. Lazily (`nestedInstructionsFor`): the same per-directory files, without rules, of directories
 *    below the working directory, and conditional rules whose `paths:` globs match a read file.
 *
 * "AGENTS.md, else CLAUDE.md" follows Claude Code 2.1.332, which loads `AGENTS.md` only where no
 * `CLAUDE.md` exists, reversed in preference because AGENTS.md is clew's own name. A candidate
 * matched by an exclude glob counts as absent, so the next one is considered. Each file appears
 * once however it is reached (symlinks, imports, cycles); imports follow their importer as
 * separate entries.
 */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import {
  excludeTest,
  InstructionReader,
  type InstructionFile,
  type InstructionLabel,
  type InstructionReason,
} from "./instruction-reader.ts";
import { addRules, rulesMatching, type ConditionalRule } from "./rules.ts";

export type { ConditionalRule, InstructionFile, InstructionLabel, InstructionReason };
export { loadAutoMemory } from "./memory.ts";

export interface InstructionOptions {
  cwd: string;
  /** From `findRepoRoot(cwd)`; undefined outside a repository. */
  repoRoot: string | undefined;
  homeDir: string;
  /** clew's user directory (`~/.clew` or `CLEW_CONFIG_DIR`). */
  configDir: string;
  /** `claudeMdExcludes`: globs matched against absolute paths (as found and symlink-resolved). */
  excludes?: readonly string[];
  /**
   * Whether imports in project and local files may reach outside the project (repository root,
   * else cwd). Claude Code asks once per project; until the app has that dialog, default true.
   */
  allowExternalImports?: boolean;
  /** CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: `--add-dir` folders whose own files load too, after the project's. */
  extraDirs?: readonly string[];
}

export interface InstructionSet {
  /** In load order, imports right after their importer. */
  files: InstructionFile[];
  /** Rules with `paths:` frontmatter, for `nestedInstructionsFor`. */
  conditionalRules: ConditionalRule[];
  /** Canonical paths of every loaded file; pass it to `nestedInstructionsFor`, which adds to it. */
  loaded: Set<string>;
  /** One line per file that was skipped or partly skipped, naming the file. */
  problems: string[];
}

export interface NestedOptions extends InstructionOptions {
  conditionalRules: readonly ConditionalRule[];
  /** Updated in place with what this call loads, so the next read does not load it again. */
  alreadyLoaded: Set<string>;
}

const LABEL_TEXT: Record<InstructionLabel, string> = {
  user: "user's private global instructions for all projects",
  project: "project instructions, checked into the codebase",
  local: "user's private project instructions, not checked in",
  memory: "user's auto-memory, persists across conversations",
};

export const INSTRUCTIONS_INTRO =
  "Codebase and user instructions are shown below. Be sure to adhere to these instructions. " +
  "IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.";

/** The nearest directory at or above `cwd` holding `.git` (a directory, or a file in worktrees). */
export function findRepoRoot(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `top`, then each directory below it down to `bottom` (which must be inside `top`). */
function directoriesDown(top: string, bottom: string): string[] {
  const dirs: string[] = [];
  let dir = bottom;
  for (;;) {
    dirs.push(dir);
    const parent = dirname(dir);
    if (dir === top || parent === dir) break;
    dir = parent;
  }
  return dirs.reverse();
}

function projectRootOf(options: InstructionOptions): string {
  return options.repoRoot ?? options.cwd;
}

async function createReader(options: InstructionOptions, loaded: Set<string>): Promise<InstructionReader> {
  return new InstructionReader(
    {
      homeDir: options.homeDir,
      projectRoot: projectRootOf(options),
      allowExternalImports: options.allowExternalImports ?? true,
      isExcluded: await excludeTest(options.excludes),
    },
    loaded,
  );
}

/** The per-directory files in order; rules only when `conditional` collects the deferred ones. */
async function addDirectory(
  reader: InstructionReader,
  dir: string,
  options: InstructionOptions,
  out: InstructionFile[],
  conditional: ConditionalRule[] | undefined,
): Promise<void> {
  const reason = conditional ? "start" : "nested";
  const add = (candidates: string[], label: InstructionLabel): void => {
    const found = reader.firstCandidate(candidates);
    if (found) reader.addFile(found, label, reason, out);
  };
  add([join(dir, "AGENTS.md"), join(dir, "CLAUDE.md")], "project");
  const userConfigHere = dir === resolve(options.homeDir) || join(dir, ".clew") === resolve(options.configDir);
  if (!userConfigHere) {
    add([join(dir, ".clew", "AGENTS.md"), join(dir, ".clew", "CLAUDE.md"), join(dir, ".claude", "CLAUDE.md")], "project");
    if (conditional) {
      const rulesDirs = [join(dir, ".clew", "rules"), join(dir, ".claude", "rules")];
      await addRules(reader, rulesDirs, { label: "project", base: dir }, out, conditional);
    }
  }
  add([join(dir, "AGENTS.local.md"), join(dir, "CLAUDE.local.md")], "local");
}

/** Everything that loads at session start (auto memory aside: see `loadAutoMemory`). */
export async function loadInstructions(options: InstructionOptions): Promise<InstructionSet> {
  const cwd = resolve(options.cwd);
  const reader = await createReader(options, new Set());
  const files: InstructionFile[] = [];
  const conditionalRules: ConditionalRule[] = [];

  const userFile = reader.firstCandidate([join(options.configDir, "AGENTS.md"), join(options.configDir, "CLAUDE.md")]);
  if (userFile) reader.addFile(userFile, "user", "start", files);
  const userScope = { label: "user" as const, base: projectRootOf(options) };
  await addRules(reader, [join(options.configDir, "rules")], userScope, files, conditionalRules);

  const top = options.repoRoot && isInside(cwd, options.repoRoot) ? options.repoRoot : parse(cwd).root;
  for (const dir of directoriesDown(top, cwd)) {
    await addDirectory(reader, dir, options, files, conditionalRules);
  }
  for (const dir of options.extraDirs ?? []) await addDirectory(reader, resolve(cwd, dir), options, files, conditionalRules);
  return { files, conditionalRules, loaded: reader.loaded, problems: reader.problems };
}

/**
 * What reading `filePath` newly brings into context: the instruction files of each directory
 * below the working directory down to the file's own, and conditional rules matching the file,
 * leaving out everything in `alreadyLoaded` (which is updated).
 */
export async function nestedInstructionsFor(
  filePath: string,
  options: NestedOptions,
): Promise<{ files: InstructionFile[]; problems: string[] }> {
  const cwd = resolve(options.cwd);
  const target = resolve(cwd, filePath);
  const dir = dirname(target);
  const below = dir !== cwd && isInside(dir, cwd);
  if (!below && options.conditionalRules.length === 0) return { files: [], problems: [] };
  const reader = await createReader(options, options.alreadyLoaded);
  const files: InstructionFile[] = [];
  if (below) {
    for (const sub of directoriesDown(cwd, dir).slice(1)) await addDirectory(reader, sub, options, files, undefined);
  }
  for (const rule of await rulesMatching(options.conditionalRules, target)) {
    if (reader.isLoaded(rule.path)) continue;
    const file = { path: rule.path, label: rule.label, reason: "rule" as const, content: rule.content, globs: rule.globs };
    reader.addContent(file, files, 0);
  }
  return { files, problems: reader.problems };
}

/**
 * The instructions as one text block, meant for a `<system-reminder>` in the first user message
 * (or, for nested files, a later reminder). Depends only on `files`, so the same files always
 * give the same bytes. Empty when no file has content.
 */
export function renderInstructions(files: readonly InstructionFile[]): string {
  const sections = files
    .filter((file) => file.content.trim() !== "")
    .map((file) => `Contents of ${file.path} (${LABEL_TEXT[file.label]}):\n\n${file.content.replace(/^\n+/, "").trimEnd()}`);
  return sections.length === 0 ? "" : [INSTRUCTIONS_INTRO, ...sections].join("\n\n");
}
