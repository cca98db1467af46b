/**
 * Paths no rule or mode approves a write to (spec §4.7, only bypassPermissions does), and `rm`
 * targets no rule ever approves: the root, top-level directories, the home directory, the
 * working directories and their parents, and globs directly inside any of those.
 */
import { dirname, resolve } from "node:path";
import { realpathDeep, workingRoots, type PathContext } from "./path-rules.ts";
import type { ShellWord } from "./shell-types.ts";

const PROTECTED_DIRS = new Set([".git", ".vscode", ".idea", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn", ".claude", ".clew"]);
/** Inside these, `worktrees/` is where worktrees live and may be written. */
const AGENT_DIRS = new Set([".claude", ".clew"]);
const PROTECTED_FILES = new Set([
  ".gitconfig", ".gitmodules",
  ".bashrc", ".bash_profile", ".bash_login", ".bash_aliases", ".bash_logout",
  ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".profile", ".envrc",
  ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnp.cjs", ".pnp.loader.mjs", ".pnpmfile.cjs", "bunfig.toml", ".bunfig.toml",
  ".bazelrc", ".bazelversion", ".bazeliskrc",
  ".pre-commit-config.yaml", "lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml",
  "gradle-wrapper.properties", "maven-wrapper.properties", ".devcontainer.json", ".ripgreprc", "pyrightconfig.json",
  ".mcp.json", ".claude.json", ".clew.json",
]);

/** Why a write to `path` is never auto-approved, or undefined when it is an ordinary path. */
export function protectedReason(path: string): string | undefined {
  const segments = path.split("/").filter((segment) => segment !== "");
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] ?? "";
    if (segment === ".config" && segments[i + 1] === "git") return "it is inside .config/git (git configuration)";
    if (!PROTECTED_DIRS.has(segment)) continue;
    if (AGENT_DIRS.has(segment) && segments[i + 1] === "worktrees") continue;
    return `it is inside ${segment}/, which can change how tools or the agent behave`;
  }
  const name = segments[segments.length - 1] ?? "";
  if (PROTECTED_FILES.has(name)) return `${name} is a configuration file that can run commands or change tool behaviour`;
  return undefined;
}

/** A last segment that selects everything in its directory: `*`, `.*`, `*.*`. */
const MATCH_ALL_GLOB = /^[.*?]*\*[.*?]*$/;
/** `"$DIR"/*`, `$DIR/`, `${DIR}/*`: an empty variable turns these into the root. */
const VARIABLE_THEN_SLASH = /\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)"?\/"?\*?"?$/;

function criticalDirs(context: PathContext): string[] {
  const dirs = new Set<string>(["/", context.homeDir, realpathDeep(context.homeDir, context.realpath)]);
  for (const root of workingRoots(context)) {
    for (let dir = root; ; dir = dirname(dir)) {
      dirs.add(dir);
      if (dirname(dir) === dir) break;
    }
  }
  return [...dirs];
}

function isCriticalDir(path: string, context: PathContext): boolean {
  const normalised = resolve(path);
  if (/^\/[^/]+$/.test(normalised)) return true;
  return criticalDirs(context).includes(normalised);
}

/** Expands `~` and a leading `$HOME`, the only expansions whose value is known here. */
function knownValue(word: ShellWord, context: PathContext): string | undefined {
  let value = word.value;
  if (word.tilde) value = value === "~" ? context.homeDir : value.replace(/^~(?=\/)/, context.homeDir);
  value = value.replace(/^\$(?:HOME|\{HOME\})(?=\/|$)/, context.homeDir);
  if (/[$`]/.test(value)) return undefined;
  return value;
}

/** Whether removing `word` (an `rm`/`rmdir` argument) would remove a critical path. */
export function isCriticalRemoval(word: ShellWord, cwd: string, context: PathContext): boolean {
  if (VARIABLE_THEN_SLASH.test(word.raw)) return true;
  const value = knownValue(word, context);
  if (value === undefined || value === "") return false;
  const path = resolve(cwd, value);
  if (isCriticalDir(path, context)) return true;
  const last = value.replace(/\/+$/, "").split("/").pop() ?? "";
  if (word.dynamic && MATCH_ALL_GLOB.test(last)) return isCriticalDir(dirname(path), context);
  return false;
}

/** The arguments of `rm`/`rmdir` that name files, skipping options. */
export function removalTargets(words: readonly ShellWord[]): ShellWord[] {
  const name = words[0]?.value.replace(/^.*\//, "");
  if (name !== "rm" && name !== "rmdir") return [];
  const targets: ShellWord[] = [];
  let options = true;
  for (const word of words.slice(1)) {
    if (options && word.value === "--") {
      options = false;
      continue;
    }
    if (options && word.value.startsWith("-") && word.value !== "-") continue;
    targets.push(word);
  }
  return targets;
}
