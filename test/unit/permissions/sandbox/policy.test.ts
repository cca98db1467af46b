// Settings → sandbox boundary, and the boundary → bubblewrap argv and Seatbelt profile text: pure
// functions, checked as whole values.
import { describe, expect, test } from "bun:test";
import { bwrapArgs, type PathKind } from "../../../../src/permissions/sandbox/bwrap.ts";
import { buildPolicy, protectedPaths, resolveSandboxPath } from "../../../../src/permissions/sandbox/policy.ts";
import { seatbeltProfile } from "../../../../src/permissions/sandbox/seatbelt.ts";
import type { SandboxConfig } from "../../../../src/permissions/sandbox/types.ts";

const BASE: SandboxConfig = {
  enabled: true,
  failIfUnavailable: false,
  autoAllowBashIfSandboxed: true,
  allowUnsandboxedCommands: true,
  excludedCommands: [],
  allowWrite: [],
  denyWrite: [],
  denyRead: [],
  allowRead: [],
  allowedDomains: [],
  deniedDomains: [],
  allowLocalBinding: false,
  strictAllowlist: false,
};

describe("sandbox paths", () => {
  test("absolute, //, ~, ./ and bare forms; trailing / and /** stripped; globs refused", () => {
    const base = "/repo";
    const resolved = ["/etc/x", "//etc/y", "~/.ssh", "./build/", "cache/**", "~", "/data/*.log", "src/[ab]", "  "].map((text) => resolveSandboxPath({ text, base }, "/home/u"));
    expect(resolved).toEqual([
      { path: "/etc/x" },
      { path: "/etc/y" },
      { path: "/home/u/.ssh" },
      { path: "/repo/build" },
      { path: "/repo/cache" },
      { path: "/home/u" },
      { why: "it is a glob, and bubblewrap can only mount concrete paths" },
      { why: "it is a glob, and bubblewrap can only mount concrete paths" },
      { why: "it is empty" },
    ]);
  });

  test("the policy: working dirs and allowWrite writable, lists resolved against each entry's base, symlink targets added, skips named", () => {
    const real: Record<string, string> = { "/repo/link": "/elsewhere/target" };
    const policy = buildPolicy(
      {
        ...BASE,
        allowWrite: [{ text: "~/.cache/npm", base: "/repo" }, { text: "link", base: "/repo" }],
        denyWrite: [{ text: "config.json", base: "/home/u/.clew" }],
        denyRead: [{ text: "~/.aws", base: "/repo" }, { text: "secrets/*.pem", base: "/repo" }],
        allowRead: [{ text: "~/.aws/config", base: "/repo" }],
        allowedDomains: [" github.com ", "*.npmjs.org", "github.com", ""],
        deniedDomains: ["evil.test"],
        allowLocalBinding: true,
      },
      { workingDirs: ["/repo", "/extra"], homeDir: "/home/u", realpath: (path) => real[path] ?? path },
    );
    expect(policy).toEqual({
      writable: ["/repo", "/extra", "/home/u/.cache/npm", "/repo/link", "/elsewhere/target"],
      denyWrite: ["/home/u/.clew/config.json"],
      denyRead: ["/home/u/.aws"],
      allowRead: ["/home/u/.aws/config"],
      network: { allowedDomains: ["github.com", "*.npmjs.org"], deniedDomains: ["evil.test"], allowLocalBinding: true },
      skipped: [{ entry: "secrets/*.pem", list: "filesystem.denyRead", why: "it is a glob, and bubblewrap can only mount concrete paths" }],
    });
  });
});

describe("bubblewrap argv", () => {
  const policy = buildPolicy(
    { ...BASE, denyWrite: [{ text: "/repo/locked", base: "/repo" }], denyRead: [{ text: "/home/u/.ssh", base: "/" }, { text: "/home/u/.netrc", base: "/" }, { text: "/home/u/.aws", base: "/" }, { text: "/gone", base: "/" }], allowRead: [{ text: "/home/u/.aws/config", base: "/" }] },
    { workingDirs: ["/repo"], homeDir: "/home/u" },
  );
  const kinds: Record<string, PathKind> = { "/repo": "dir", "/repo/locked": "file", "/repo/.git/hooks": "dir", "/repo/.mcp.json": "file", "/home/u/.ssh": "dir", "/home/u/.netrc": "file", "/home/u/.aws": "dir", "/home/u/.aws/config": "file" };
  const layout = {
    bwrap: "/usr/bin/bwrap",
    sessionDir: "/tmp/s",
    deniedFile: "/tmp/s/denied-file",
    deniedDir: "/tmp/s/denied-dir",
    cwd: "/repo/sub",
    protectedPaths: protectedPaths(policy, ["/repo"]),
    kindOf: (path: string) => kinds[path],
  };

  test("joining the session's network namespace, as root: the mounts in order, capabilities dropped", () => {
    expect(bwrapArgs(policy, { ...layout, joinNetwork: ["/usr/bin/nsenter", "--net=/proc/42/ns/net", "--"], isRoot: true, unshareNet: false })).toEqual([
      "/usr/bin/nsenter", "--net=/proc/42/ns/net", "--",
      "/usr/bin/bwrap", "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--cap-drop", "ALL",
      "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", "/tmp/s/tmp", "/tmp",
      "--bind", "/repo", "/repo",
      "--ro-bind", "/repo/.mcp.json", "/repo/.mcp.json", "--ro-bind", "/repo/.git/hooks", "/repo/.git/hooks", "--ro-bind", "/repo/locked", "/repo/locked",
      "--ro-bind", "/tmp/s/denied-dir", "/home/u/.ssh",
      "--ro-bind", "/tmp/s/denied-file", "/home/u/.netrc",
      "--tmpfs", "/home/u/.aws", "--remount-ro", "/home/u/.aws",
      "--ro-bind", "/home/u/.aws/config", "/home/u/.aws/config",
      "--chdir", "/repo/sub", "--",
    ]);
  });

  test("an unprivileged user unshares the network itself and keeps no capability flags", () => {
    const args = bwrapArgs(policy, { ...layout, isRoot: false, unshareNet: true });
    expect(args.slice(0, 7)).toEqual(["/usr/bin/bwrap", "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--ro-bind"]);
    expect(args).not.toContain("--cap-drop");
  });
});

describe("Seatbelt profile", () => {
  test("reads allowed, writes only to the writable dirs and the session temp dir, denials after allows, only the proxy port out", () => {
    const policy = buildPolicy(
      { ...BASE, denyWrite: [{ text: "/repo/locked", base: "/" }], denyRead: [{ text: "/Users/u/.ssh", base: "/" }], allowRead: [{ text: "/Users/u/.ssh/known_hosts", base: "/" }] },
      { workingDirs: ["/repo", '/odd "dir"'], homeDir: "/Users/u" },
    );
    const dirs = new Set(["/repo", "/Users/u/.ssh", "/repo/.git/hooks"]);
    const profile = seatbeltProfile(policy, { tmpDir: "/private/var/folders/x/T/clew-sandbox-1", proxyPort: 4321, protectedPaths: ["/repo/.git/hooks", "/repo/.mcp.json"], isDir: (path) => dirs.has(path) });
    expect(profile).toBe(
      [
        "(version 1)",
        "(deny default)",
        "(allow process-exec process-fork process-info* signal)",
        "(allow sysctl-read mach-lookup ipc-posix-shm* ipc-posix-sem iokit-open pseudo-tty file-ioctl)",
        "(allow file-read*)",
        "(allow file-write*",
        '  (subpath "/repo")',
        '  (subpath "/odd \\"dir\\"")',
        '  (subpath "/private/var/folders/x/T/clew-sandbox-1")',
        ")",
        '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
        "(deny file-write*",
        '  (subpath "/repo/.git/hooks")',
        '  (literal "/repo/.mcp.json")',
        '  (literal "/repo/locked")',
        ")",
        "(deny file-read*",
        '  (subpath "/Users/u/.ssh")',
        ")",
        "(allow file-read*",
        '  (literal "/Users/u/.ssh/known_hosts")',
        ")",
        '(allow network-outbound (remote ip "localhost:4321"))',
        '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
        "",
      ].join("\n"),
    );
  });

  test("allowLocalBinding opens loopback binding and connections", () => {
    const policy = buildPolicy({ ...BASE, allowLocalBinding: true }, { workingDirs: ["/repo"], homeDir: "/Users/u" });
    const profile = seatbeltProfile(policy, { tmpDir: "/t", proxyPort: 1, protectedPaths: [], isDir: () => true });
    expect(profile.trimEnd().split("\n").slice(-3)).toEqual(['(allow network-bind (local ip "localhost:*"))', '(allow network-inbound (local ip "localhost:*"))', '(allow network-outbound (remote ip "localhost:*"))']);
  });
});
