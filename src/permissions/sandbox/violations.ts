/**
 * What the sandbox blocked, read from a failed command's output and the proxy's refusals, told
 * to the model with how the user can allow it (spec §7.3). Paths come from the messages tools
 * print for the errors a masked or read-only path gives (EROFS, EACCES); a message only counts
 * when its path is one the sandbox, not the file's own permissions, keeps closed.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { isInside } from "../path-rules.ts";
import type { Refusal } from "./proxy.ts";
import type { SandboxBoundary } from "./types.ts";

export interface Blocked {
  kind: "write" | "read" | "network";
  /** A path, or `host:port`. */
  target: string;
  why: string;
}

const ERROR_LINE = /(Read-only file system|Permission denied|Operation not permitted|No such file or directory)/;
/** Candidate paths in a message: quoted, or bare words holding a slash, before a colon. */
const CANDIDATES = /['"‘`]([^'"’`\n]+)['"’`]|((?:~|\.{0,2})?\/?[\w.@+-]*\/[^\s:'"]*|[\w.@+-]+)(?=:)/g;

function candidates(line: string, cwd: string): string[] {
  const out: string[] = [];
  for (const match of line.matchAll(CANDIDATES)) {
    const text = (match[1] ?? match[2] ?? "").trim();
    if (text === "" || /^(bash|sh|zsh|touch|cat|cp|mv|mkdir|rm|ln|tee|echo|ls)$/.test(text)) continue;
    out.push(isAbsolute(text) ? resolve(text) : resolve(cwd, text));
  }
  return out;
}

/**
 * The command's /tmp is the session's own: a path in the host's /tmp outside the working
 * directories is simply not there. Reported when its folder exists outside.
 */
function hostTmp(path: string, boundary: SandboxBoundary, existsOutside: (path: string) => boolean): Blocked | undefined {
  const visible = [...boundary.policy.writable, ...boundary.readOnlyDirs];
  if (!isInside(path, "/tmp") || path === "/tmp" || visible.some((dir) => isInside(path, dir))) return undefined;
  if (!existsOutside(dirname(path)) || dirname(path) === "/tmp") return undefined;
  return { kind: "write", target: path, why: "it is in the host's /tmp, and a sandboxed command's /tmp is private to the session (its own empty folder)" };
}

function classify(path: string, readOnlyError: boolean, boundary: SandboxBoundary): Blocked | undefined {
  const { policy, protectedPaths } = boundary;
  if (policy.denyRead.some((denied) => isInside(path, denied)) && !policy.allowRead.some((allowed) => isInside(path, allowed))) {
    return { kind: "read", target: path, why: "it is in sandbox.filesystem.denyRead" };
  }
  if (!readOnlyError) return undefined;
  const denied = policy.denyWrite.find((entry) => isInside(path, entry));
  if (denied) return { kind: "write", target: path, why: "it is in sandbox.filesystem.denyWrite" };
  const shielded = protectedPaths.find((entry) => isInside(path, entry));
  if (shielded) return { kind: "write", target: path, why: "it is agent, editor or git configuration, which stays read-only inside the sandbox" };
  const writable = policy.writable.some((dir) => isInside(path, dir));
  if (!writable && boundary.readOnlyDirs.some((dir) => isInside(path, dir))) {
    return { kind: "write", target: path, why: "it is outside this helper's own git worktree (isolation: worktree), the only copy of the project its commands may write" };
  }
  if (!writable && !isInside(path, "/tmp")) {
    return { kind: "write", target: path, why: "it is outside the directories sandboxed commands may write (the working directories and sandbox.filesystem.allowWrite)" };
  }
  return undefined;
}

export function findBlocked(
  output: string,
  cwd: string,
  boundary: SandboxBoundary,
  refusals: readonly Refusal[],
  existsOutside: (path: string) => boolean = () => false,
): Blocked[] {
  const found: Blocked[] = [];
  const seen = new Set<string>();
  for (const line of output.split("\n")) {
    const error = ERROR_LINE.exec(line);
    if (!error) continue;
    // The path nearest the error message is the one it is about (`bash: line 1: /x: Read-only …`).
    for (const path of candidates(line.slice(0, error.index), cwd).reverse()) {
      const blocked =
        error[1] === "No such file or directory"
          ? hostTmp(path, boundary, existsOutside)
          : classify(path, error[1] === "Read-only file system" || error[1] === "Permission denied", boundary);
      if (blocked && !seen.has(`${blocked.kind}:${blocked.target}`)) {
        seen.add(`${blocked.kind}:${blocked.target}`);
        found.push(blocked);
        break;
      }
    }
  }
  for (const refusal of refusals) {
    const target = `${refusal.host}:${refusal.port}`;
    if (seen.has(`network:${target}`)) continue;
    seen.add(`network:${target}`);
    found.push({ kind: "network", target, why: refusal.why });
  }
  return found;
}

/** The note appended to the command's output for the model. */
export function describeBlocked(blocked: readonly Blocked[], allowUnsandboxed: boolean): string | undefined {
  if (blocked.length === 0) return undefined;
  const lines = blocked.map((item) => {
    const what = item.kind === "network" ? `connecting to ${item.target}` : `${item.kind === "read" ? "reading" : "writing"} ${item.target}`;
    return `- ${what}: ${item.why}`;
  });
  const fixes: string[] = [];
  if (blocked.some((item) => item.kind === "network")) fixes.push(`add the host to sandbox.network.allowedDomains (e.g. "${blocked.find((item) => item.kind === "network")?.target.replace(/:\d+$/, "")}")`);
  if (blocked.some((item) => item.kind === "write")) fixes.push("add the path to sandbox.filesystem.allowWrite (or remove it from denyWrite)");
  if (blocked.some((item) => item.kind === "read")) fixes.push("remove the path from sandbox.filesystem.denyRead, or add it to allowRead");
  const retry = allowUnsandboxed ? " You may also retry the command with dangerouslyDisableSandbox: true; it then runs outside the sandbox once the user approves it." : "";
  return [
    "[sandbox] The OS sandbox blocked this command:",
    ...lines,
    `The user can allow it in their settings (.claude/settings.local.json or ~/.clew/settings.json): ${fixes.join("; ")}.${retry}`,
  ].join("\n");
}
