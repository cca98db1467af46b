// The sandbox from layered settings (lists concatenate, the strongest boolean wins, a repository
// cannot loosen it, managed-only domains), and a session's sandbox port driving the real Bash
// tool through real bubblewrap: foreground and background commands, both network set-ups.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setUpPermissions } from "../../../src/app/permission-setup.ts";
import { sandboxConfig, setUpSandbox } from "../../../src/app/sandbox-setup.ts";
import { loadSettings } from "../../../src/settings/load.ts";
import { bashTool } from "../../../src/tools/bash.ts";
import { bashOutputTool } from "../../../src/tools/bash-output.ts";
import { runTool, tempDir, toolSession } from "../../helpers/tool-session.ts";

const hasBwrap = process.platform === "linux" && Bun.which("bwrap") !== null;

function layered(files: Record<string, unknown>) {
  const dir = tempDir();
  for (const [path, value] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, JSON.stringify(value));
  }
  const configDir = join(dir, ".config");
  const loaded = loadSettings({ startDir: dir, configDir, managedDirs: [join(dir, "managed")], homeDir: dir, trusted: true });
  return { dir, configDir, loaded };
}

describe("sandbox settings", () => {
  test("lists concatenate across layers, the strongest boolean wins, user-relative paths resolve in the config dir", () => {
    const { dir, configDir, loaded } = layered({
      ".config/settings.json": { sandbox: { enabled: false, autoAllowBashIfSandboxed: false, filesystem: { allowWrite: ["cache"] }, network: { allowedDomains: ["github.com"] } } },
      ".clew/settings.json": { sandbox: { enabled: true, excludedCommands: ["docker"], filesystem: { denyRead: ["./secrets"] }, network: { allowedDomains: ["*.npmjs.org"], strictAllowlist: true } } },
      ".clew/settings.local.json": { sandbox: { failIfUnavailable: true, network: { deniedDomains: ["evil.test"] } } },
    });
    expect(sandboxConfig(loaded, dir, configDir)).toEqual({
      enabled: true,
      failIfUnavailable: true,
      autoAllowBashIfSandboxed: false,
      allowUnsandboxedCommands: true,
      excludedCommands: ["docker"],
      allowWrite: [{ text: "cache", base: configDir }],
      denyWrite: [],
      denyRead: [{ text: "./secrets", base: dir }],
      allowRead: [],
      allowedDomains: ["*.npmjs.org", "github.com"],
      deniedDomains: ["evil.test"],
      allowLocalBinding: false,
      // A repository cannot set strictAllowlist (spec §2.5): the project file's value is dropped.
      strictAllowlist: false,
    });
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      "sandbox.network.strictAllowlist true is ignored in shared project settings: a repository cannot set this; put it in your user settings",
    ]);
  });

  test("permission rules join the boundary: Edit allow/deny, Read deny, WebFetch domains", () => {
    const { dir, configDir, loaded } = layered({
      ".config/settings.json": { sandbox: { enabled: true, network: { allowedDomains: ["github.com"] } } },
      ".clew/settings.local.json": { permissions: { allow: ["Edit(//opt/cache/**)", "WebFetch(domain:docs.rs)", "Bash(make *)"], deny: ["Read(~/.aws/**)", "Edit(./locked.txt)", "Read(./.env*)", "WebFetch(domain:evil.test)"] } },
    });
    const config = sandboxConfig(loaded, dir, configDir);
    expect({ allowWrite: config.allowWrite, denyWrite: config.denyWrite, denyRead: config.denyRead, allowedDomains: config.allowedDomains, deniedDomains: config.deniedDomains }).toEqual({
      allowWrite: [{ text: "//opt/cache/**", base: dir, rule: "Edit(//opt/cache/**)" }],
      denyWrite: [{ text: "./locked.txt", base: dir, rule: "Edit(./locked.txt)" }],
      denyRead: [{ text: "~/.aws/**", base: dir, rule: "Read(~/.aws/**)" }, { text: "./.env*", base: dir, rule: "Read(./.env*)" }],
      allowedDomains: ["github.com", "docs.rs"],
      deniedDomains: ["evil.test"],
    });
  });

  test("allowManagedDomainsOnly keeps only the managed allowed domains", () => {
    const { dir, configDir, loaded } = layered({
      "managed/managed-settings.json": { sandbox: { network: { allowManagedDomainsOnly: true, allowedDomains: ["corp.example"] } } },
      ".config/settings.json": { sandbox: { network: { allowedDomains: ["github.com"] } } },
    });
    expect(sandboxConfig(loaded, dir, configDir).allowedDomains).toEqual(["corp.example"]);
  });

  test("a wrongly typed key is reported with its path and the rest of the section kept", () => {
    const { dir, configDir, loaded } = layered({ ".clew/settings.json": { sandbox: { enabled: "yes", excludedCommands: ["docker"] } } });
    expect(loaded.problems.map((problem) => problem.keyPath)).toEqual(["sandbox.enabled"]);
    expect(sandboxConfig(loaded, dir, configDir)).toMatchObject({ enabled: false, excludedCommands: ["docker"] });
  });
});

describe.skipIf(!hasBwrap)("a session's sandbox with the Bash tool", () => {
  const sessions: Array<ReturnType<typeof toolSession>> = [];
  afterEach(async () => {
    for (const session of sessions.splice(0)) {
      await session.shells.killAll();
      session.sandbox?.close();
    }
  });

  async function sandboxedSession(isRoot: boolean | undefined) {
    const { dir, configDir, loaded } = layered({ ".config/settings.json": { sandbox: { enabled: true } } });
    const permissions = setUpPermissions({ settings: loaded, flagMode: undefined, unsandboxedRoot: false, cwd: dir, homeDir: dir, tools: [], ask: undefined });
    const reports: string[] = [];
    const sandbox = await setUpSandbox({ settings: loaded, gate: permissions.gate, cwd: dir, homeDir: dir, configDir, path: process.env.PATH ?? "", report: (line) => reports.push(line), ...(isRoot === undefined ? {} : { isRoot }) });
    const session = toolSession(dir, { sandbox, env: { PATH: process.env.PATH ?? "", HOME: dir } });
    sessions.push(session);
    return { dir, session, reports, permissions };
  }

  test("foreground and background commands run inside; cd carries over; the gate now auto-allows; a dead session's folder is cleared", async () => {
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const stale = join(tmpdir(), `clew-sandbox-${dead.pid}-old`);
    mkdirSync(join(stale, "denied-dir"), { recursive: true, mode: 0 });
    const { dir, session, reports, permissions } = await sandboxedSession(undefined);
    expect(reports).toEqual([]);
    const decision = await permissions.gate.check({ toolName: "Bash", access: "exec", subject: "make", input: { command: "make" }, toolUseId: "t1" });
    expect(decision.behavior).toBe("allow");
    mkdirSync(join(dir, "sub"));
    const first = await runTool(bashTool, { command: "cd sub && echo $CLEW_SANDBOX $HTTPS_PROXY > where.txt && pwd" }, session);
    expect(first.content).toBe(join(dir, "sub"));
    expect(readFileSync(join(dir, "sub", "where.txt"), "utf8")).toBe("1 http://127.0.0.1:3128\n");
    expect(session.cwd).toBe(join(dir, "sub"));
    const outside = await runTool(bashTool, { command: "echo x > /etc/clew-sandbox-probe" }, session);
    expect(String(outside.content)).toContain("- writing /etc/clew-sandbox-probe: it is outside the directories sandboxed commands may write");
    expect(existsSync("/etc/clew-sandbox-probe")).toBe(false);

    const started = await runTool(bashTool, { command: "echo bg > /etc/clew-sandbox-bg; echo done-bg", run_in_background: true }, session);
    const id = (started.data as { backgroundTaskId: string }).backgroundTaskId;
    await session.shells.get(id)?.done;
    const output = await runTool(bashOutputTool, { bash_id: id }, session);
    expect(String(output.content)).toContain("Read-only file system");
    expect(String(output.content)).toContain("done-bg");
    expect(existsSync("/etc/clew-sandbox-bg")).toBe(false);
    expect(existsSync(stale)).toBe(false);
  });

  test("without nsenter's privilege (a forwarder in front of each command) the network still goes only through the proxy", async () => {
    const web = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("never") });
    try {
      const { session } = await sandboxedSession(false);
      const result = await runTool(bashTool, { command: `curl -sS --max-time 10 http://127.0.0.1:${web.port}/ ; echo; curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${web.port}/ || echo direct-failed` }, session);
      const text = String(result.content);
      expect(text).toContain(`clew sandbox: the connection to 127.0.0.1:${web.port} was refused`);
      expect(text).toContain("direct-failed");
      expect(text).not.toContain("never");
    } finally {
      web.stop(true);
    }
  });
});

const canDropRoot = hasBwrap && process.getuid?.() === 0 && Bun.which("setpriv") !== null;

describe.skipIf(!canDropRoot)("the sandbox for an unprivileged user (bwrap makes its own user namespace)", () => {
  test("writes outside fail, denyRead holds, an allowed host is reached and another refused", async () => {
    // Under /tmp itself: the test run's own temp folder is closed to other users.
    const dir = realpathSync(mkdtempSync("/tmp/clew-sbx-nobody-"));
    chmodSync(dir, 0o777);
    const secret = join(dir, "secret.txt");
    writeFileSync(secret, "hunter2\n", { mode: 0o644 });
    const web = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => new Response(`hi from ${new URL(request.url).pathname}\n`) });
    const script = join(dir, "run.ts");
    const src = join(import.meta.dir, "../../../src");
    writeFileSync(
      script,
      `import { LinuxSandbox } from ${JSON.stringify(join(src, "permissions/sandbox/runner.ts"))};
import { buildPolicy } from ${JSON.stringify(join(src, "permissions/sandbox/policy.ts"))};
import { runShell } from ${JSON.stringify(join(src, "tools/shared/shell.ts"))};
const [project, secret, port] = process.argv.slice(2);
const policy = buildPolicy({ enabled: true, failIfUnavailable: false, autoAllowBashIfSandboxed: true, allowUnsandboxedCommands: true, excludedCommands: [], allowWrite: [], denyWrite: [], denyRead: [{ text: secret, base: project }], allowRead: [], allowedDomains: ["127.0.0.1:" + port], deniedDomains: [], allowLocalBinding: false, strictAllowlist: false }, { workingDirs: [project], homeDir: "/nonexistent" });
const sandbox = new LinuxSandbox({ policy, workingDirs: [project], bwrap: Bun.which("bwrap"), nsenter: Bun.which("nsenter") ?? undefined, bunBinary: process.execPath, isRoot: false, tmpRoot: "/tmp", path: Bun.env.PATH });
const results = [];
for (const command of ["id -u; echo in > in.txt; cat in.txt", "echo x > /var/tmp/clew-nobody-out", "cat " + secret, "curl -sS http://127.0.0.1:" + port + "/ok", "curl -sS -o /dev/null https://example.com"]) {
  const launch = await sandbox.launch(project);
  const result = await runShell({ command, cwd: project, env: { PATH: Bun.env.PATH }, maxOutputChars: 10000, timeoutMs: 30000, signal: new AbortController().signal, launch });
  results.push([result.exitCode, result.stdout + result.stderr]);
}
sandbox.close();
console.log(JSON.stringify(results));
process.exit(0);
`,
    );
    try {
      const child = Bun.spawn(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, script, dir, secret, String(web.port)], { cwd: dir, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      expect(stderr).toBe("");
      expect(JSON.parse(stdout)).toEqual([
        [0, "65534\nin\n"],
        [1, "/usr/bin/bash: line 1: /var/tmp/clew-nobody-out: Read-only file system\n"],
        [1, `cat: ${secret}: Permission denied\n`],
        [0, "hi from /ok\n"],
        [56, "curl: (56) CONNECT tunnel failed, response 403\n"],
      ]);
      expect(existsSync("/var/tmp/clew-nobody-out")).toBe(false);
    } finally {
      web.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
