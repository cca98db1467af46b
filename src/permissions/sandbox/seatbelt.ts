/**
 * The Seatbelt profile `sandbox-exec -p` runs a sandboxed command under on macOS (spec §7.1).
 * Pure text from the policy, unit-tested here and run by users on macOS. In SBPL the last
 * matching rule wins, so the order is: allow reads, allow writes to the writable directories,
 * deny `denyWrite` and the protected paths, deny `denyRead`, re-allow `allowRead`.
 */
import type { SandboxPolicy } from "./types.ts";

export interface SeatbeltLayout {
  /** The session's temporary directory ($TMPDIR for the command). */
  tmpDir: string;
  /** The filtering proxy's port on 127.0.0.1: the only outbound connection allowed. */
  proxyPort: number;
  protectedPaths: readonly string[];
  /** Which of the paths are directories (a `subpath` rule) rather than files (a `literal` one). */
  isDir: (path: string) => boolean;
}

/** An SBPL string literal. */
export function sbplString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function filter(path: string, isDir: boolean): string {
  return isDir ? `(subpath ${sbplString(path)})` : `(literal ${sbplString(path)})`;
}

function rule(action: "allow" | "deny", operation: string, paths: readonly string[], isDir: (path: string) => boolean): string[] {
  if (paths.length === 0) return [];
  return [`(${action} ${operation}`, ...paths.map((path) => `  ${filter(path, isDir(path))}`), ")"];
}

export function seatbeltProfile(policy: SandboxPolicy, layout: SeatbeltLayout): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork process-info* signal)",
    "(allow sysctl-read mach-lookup ipc-posix-shm* ipc-posix-sem iokit-open pseudo-tty file-ioctl)",
    "(allow file-read*)",
    ...rule("allow", "file-write*", [...policy.writable, layout.tmpDir], () => true),
    '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
    ...rule("deny", "file-write*", [...layout.protectedPaths, ...policy.denyWrite], layout.isDir),
    ...rule("deny", "file-read*", policy.denyRead, layout.isDir),
    ...rule("allow", "file-read*", policy.allowRead, layout.isDir),
    `(allow network-outbound (remote ip "localhost:${layout.proxyPort}"))`,
    '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
  ];
  if (policy.network.allowLocalBinding) lines.push('(allow network-bind (local ip "localhost:*"))', '(allow network-inbound (local ip "localhost:*"))', '(allow network-outbound (remote ip "localhost:*"))');
  return `${lines.join("\n")}\n`;
}
