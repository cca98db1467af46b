/**
 * Settings → the boundary of one sandboxed command (spec §7.2, §7.4). Pure: the same config and
 * directories always give the same policy, so it is unit-tested without bwrap.
 *
 * Path conventions are the sandbox's own, not permission rules': `/x` and `//x` absolute, `~/x`
 * the home directory, `./x` or bare relative to the file's base. A trailing `/` or `/**` is
 * stripped; entries still holding `*`, `?` or `[` cannot be mounted and are reported as skipped.
 */
import { isAbsolute, join, normalize } from "node:path";
import type { SandboxConfig, SandboxPathEntry, SandboxPolicy } from "./types.ts";

export interface PolicyDirs {
  /** The project directory and every additional working directory, absolute. */
  workingDirs: readonly string[];
  homeDir: string;
  /** Real path of an existing path (symlinks resolved), undefined when it does not exist. */
  realpath?: (path: string) => string | undefined;
}

const GLOB = /[*?[]/;

/** The absolute path an entry names, or why it names none. */
export function resolveSandboxPath(entry: SandboxPathEntry, homeDir: string): { path: string } | { why: string } {
  let text = entry.text.trim();
  if (text === "") return { why: "it is empty" };
  while (text.length > 1 && (text.endsWith("/**") || text.endsWith("/"))) text = text.endsWith("/**") ? text.slice(0, -3) : text.slice(0, -1);
  if (text === "~" || text.startsWith("~/")) text = join(homeDir, text.slice(1));
  else if (text.startsWith("//")) text = text.slice(1);
  else if (!isAbsolute(text)) text = join(entry.base, text);
  if (GLOB.test(text)) return { why: "it is a glob, and bubblewrap can only mount concrete paths" };
  return { path: normalize(text) };
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

export function buildPolicy(config: SandboxConfig, dirs: PolicyDirs): SandboxPolicy {
  const skipped: { entry: string; list: string; why: string; rule?: string }[] = [];
  const resolveList = (list: string, entries: readonly SandboxPathEntry[]): string[] => {
    const out: string[] = [];
    for (const entry of entries) {
      const resolved = resolveSandboxPath(entry, dirs.homeDir);
      if ("why" in resolved) {
        skipped.push({ entry: entry.text, list, why: resolved.why, ...(entry.rule ? { rule: entry.rule } : {}) });
        continue;
      }
      out.push(resolved.path);
      // bwrap mounts the target a symlink points at: both spellings must be covered.
      const real = dirs.realpath?.(resolved.path);
      if (real !== undefined && real !== resolved.path) out.push(real);
    }
    return unique(out);
  };
  const working = dirs.workingDirs.flatMap((dir) => {
    const real = dirs.realpath?.(dir);
    return real !== undefined && real !== dir ? [dir, real] : [dir];
  });
  return {
    writable: unique([...working, ...resolveList("filesystem.allowWrite", config.allowWrite)]),
    denyWrite: resolveList("filesystem.denyWrite", config.denyWrite),
    denyRead: resolveList("filesystem.denyRead", config.denyRead),
    allowRead: resolveList("filesystem.allowRead", config.allowRead),
    network: {
      allowedDomains: unique(config.allowedDomains.map((domain) => domain.trim()).filter((domain) => domain !== "")),
      deniedDomains: unique(config.deniedDomains.map((domain) => domain.trim()).filter((domain) => domain !== "")),
      allowLocalBinding: config.allowLocalBinding,
    },
    skipped,
  };
}

/**
 * Paths inside a working directory that stay read-only even though it is writable (spec §7.2):
 * agent and editor configuration and git's hooks and config. Only existing ones can be mounted.
 */
export const PROTECTED_RELATIVE = [
  ".claude", ".clew", ".mcp.json", ".git/hooks", ".git/config", ".vscode", ".idea", ".husky",
  ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".zshrc", ".profile", ".envrc", ".npmrc",
] as const;

export function protectedPaths(policy: SandboxPolicy, workingDirs: readonly string[]): string[] {
  return unique(workingDirs.flatMap((dir) => PROTECTED_RELATIVE.map((name) => join(dir, name)))).filter((path) => !policy.denyRead.includes(path));
}
