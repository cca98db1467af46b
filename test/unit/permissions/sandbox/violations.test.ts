// What a failed sandboxed command is told: the blocked paths read from the messages tools print
// (only those the sandbox keeps closed), the proxy's refusals, and how the user can allow each.
import { describe, expect, test } from "bun:test";
import { buildPolicy } from "../../../../src/permissions/sandbox/policy.ts";
import { describeBlocked, findBlocked } from "../../../../src/permissions/sandbox/violations.ts";

const policy = buildPolicy(
  {
    enabled: true, failIfUnavailable: false, autoAllowBashIfSandboxed: true, allowUnsandboxedCommands: true, excludedCommands: [],
    allowWrite: [], denyWrite: [{ text: "/repo/locked.txt", base: "/" }], denyRead: [{ text: "/home/u/.ssh", base: "/" }], allowRead: [],
    allowedDomains: [], deniedDomains: [], allowLocalBinding: false, strictAllowlist: false,
  },
  { workingDirs: ["/repo"], homeDir: "/home/u" },
);

describe("blocked paths and hosts", () => {
  test("EROFS outside the writable dirs, denyWrite, protected paths, denyRead; ordinary errors ignored", () => {
    const output = [
      "/usr/bin/bash: line 1: /home/u/outside: Read-only file system",
      "touch: cannot touch '/repo/locked.txt': Read-only file system",
      "cp: cannot create regular file '.git/hooks/pre-commit': Read-only file system",
      "cat: /home/u/.ssh/id_rsa: Permission denied",
      "cat: missing.txt: No such file or directory",
      "bash: ./script.sh: Permission denied",
    ].join("\n");
    expect(findBlocked(output, "/repo", { policy, protectedPaths: ["/repo/.git/hooks"], readOnlyDirs: [] }, [])).toEqual([
      { kind: "write", target: "/home/u/outside", why: "it is outside the directories sandboxed commands may write (the working directories and sandbox.filesystem.allowWrite)" },
      { kind: "write", target: "/repo/locked.txt", why: "it is in sandbox.filesystem.denyWrite" },
      { kind: "write", target: "/repo/.git/hooks/pre-commit", why: "it is agent, editor or git configuration, which stays read-only inside the sandbox" },
      { kind: "read", target: "/home/u/.ssh/id_rsa", why: "it is in sandbox.filesystem.denyRead" },
    ]);
  });

  test("a path in the host's /tmp is reported when its folder exists outside; refusals once per host", () => {
    const output = "bash: /tmp/shared/out.txt: No such file or directory";
    const refusals = [
      { host: "evil.test", port: 443, why: "it is not in sandbox.network.allowedDomains", seq: 3 },
      { host: "evil.test", port: 443, why: "it is not in sandbox.network.allowedDomains", seq: 4 },
    ];
    expect(findBlocked(output, "/repo", { policy, protectedPaths: [], readOnlyDirs: [] }, refusals, (path) => path === "/tmp/shared")).toEqual([
      { kind: "write", target: "/tmp/shared/out.txt", why: "it is in the host's /tmp, and a sandboxed command's /tmp is private to the session (its own empty folder)" },
      { kind: "network", target: "evil.test:443", why: "it is not in sandbox.network.allowedDomains" },
    ]);
  });

  test("the note names each block and each way to allow it; no retry offer in strict mode", () => {
    const blocked = [
      { kind: "write" as const, target: "/home/u/outside", why: "it is outside the directories sandboxed commands may write" },
      { kind: "network" as const, target: "evil.test:443", why: "it is not in sandbox.network.allowedDomains" },
    ];
    expect(describeBlocked(blocked, false)).toBe(
      [
        "[sandbox] The OS sandbox blocked this command:",
        "- writing /home/u/outside: it is outside the directories sandboxed commands may write",
        "- connecting to evil.test:443: it is not in sandbox.network.allowedDomains",
        'The user can allow it in their settings (.claude/settings.local.json or ~/.clew/settings.json): add the host to sandbox.network.allowedDomains (e.g. "evil.test"); add the path to sandbox.filesystem.allowWrite (or remove it from denyWrite).',
      ].join("\n"),
    );
    expect(describeBlocked(blocked, true)).toEndWith("You may also retry the command with dangerouslyDisableSandbox: true; it then runs outside the sandbox once the user approves it.");
    expect(describeBlocked([], true)).toBeUndefined();
  });
});
