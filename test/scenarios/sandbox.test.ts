// The Bash sandbox against the compiled binary, with real bubblewrap, the real proxy and real
// curl. Headless runs have no one to approve anything, so a command that runs at all ran because
// the sandbox's auto-allow let it — and what it could reach is what the sandbox allowed.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolResults, type FakeServer, type JsonObject } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

const hasBwrap = process.platform === "linux" && Bun.which("bwrap") !== null;
const hasCurl = Bun.which("curl") !== null;

let server: FakeServer | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface Setup {
  dir: string;
  configDir: string;
  home: string;
}

/** A project, a config dir with the sandbox settings, and a home directory outside /tmp (the sandbox's /tmp is private). */
function setup(sandbox: Record<string, unknown>): Setup {
  const dir = tempDirectory("clew-sbx-project-");
  const configDir = tempDirectory("clew-sbx-config-");
  const home = realpathSync(mkdtempSync("/var/tmp/clew-sbx-home-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(configDir, "settings.json"), JSON.stringify({ sandbox: { enabled: true, ...sandbox } }));
  return { dir, configDir, home };
}

interface Outcome {
  code: number;
  stderr: string;
  results: Array<{ isError: boolean; text: string }>;
  denials: string[];
}

/** One turn that runs `commands` through Bash; the results the model got back. */
async function runCommands(where: Setup, commands: JsonObject[], env: Record<string, string> = {}): Promise<Outcome> {
  let call = reply();
  for (const input of commands) call = call.toolUse("Bash", input);
  let results: Outcome["results"] = [];
  server = await startFakeAnthropic({
    script: [
      call,
      (request) => {
        results = toolResults(request).map((result) => ({ isError: result.isError, text: result.text }));
        return reply().text("done");
      },
    ],
  });
  const run = await runClew(["-p", "run them", "--output-format", "json"], { cwd: where.dir, baseURL: server.url, configDir: where.configDir, env: { HOME: where.home, ...env } });
  expect(server.violations).toEqual([]);
  const denials = run.stdout.trim() === "" ? [] : (JSON.parse(run.stdout) as { permission_denials: Array<{ tool_input: { command: string } }> }).permission_denials.map((denial) => denial.tool_input.command);
  return { code: run.code, stderr: run.stderr, results, denials };
}

/** A local HTTP server that logs every request it gets. */
function logServer(body: string): { url: string; port: number; log: string[]; stop: () => void } {
  const log: string[] = [];
  const http = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      log.push(`${request.method} ${new URL(request.url).pathname}`);
      return new Response(body);
    },
  });
  cleanups.push(() => http.stop(true));
  return { url: `http://127.0.0.1:${http.port}`, port: http.port ?? 0, log, stop: () => http.stop(true) };
}

describe.skipIf(!hasBwrap)("scenario: Bash sandbox (bubblewrap)", () => {
  test("a write outside the working directories fails and leaves nothing; a write inside works; the model is told what was blocked", async () => {
    const where = setup({});
    const outcome = await runCommands(where, [{ command: "echo x > ~/outside" }, { command: "echo inside > made.txt && cat made.txt" }]);
    expect(outcome.code).toBe(0);
    expect(outcome.denials).toEqual([]);
    expect(existsSync(join(where.home, "outside"))).toBe(false);
    expect(readFileSync(join(where.dir, "made.txt"), "utf8")).toBe("inside\n");
    const [outside, inside] = outcome.results;
    expect(outside?.text).toContain(`${where.home}/outside: Read-only file system`);
    expect(outside?.text).toContain(`[sandbox] The OS sandbox blocked this command:\n- writing ${where.home}/outside: it is outside the directories sandboxed commands may write`);
    expect(outside?.text).toContain("sandbox.filesystem.allowWrite");
    expect(outside?.text).toContain("dangerouslyDisableSandbox: true");
    expect(inside).toEqual({ isError: false, text: "inside" });
  });

  test("a denyRead file and directory cannot be read, though the file system around them can", async () => {
    const where = setup({});
    const secrets = join(where.home, "secrets");
    mkdirSync(secrets);
    writeFileSync(join(secrets, "key"), "hunter2\n");
    writeFileSync(join(where.home, "token"), "t0ken\n");
    writeFileSync(join(where.home, "public"), "hello\n");
    writeFileSync(join(where.configDir, "settings.json"), JSON.stringify({ sandbox: { enabled: true, filesystem: { denyRead: ["~/secrets", `${where.home}/token`] } } }));
    const outcome = await runCommands(where, [{ command: "cat ~/secrets/key" }, { command: "cat ~/token" }, { command: "cat ~/public" }]);
    expect(outcome.denials).toEqual([]);
    const [dirRead, fileRead, publicRead] = outcome.results;
    expect(dirRead?.text).not.toContain("hunter2");
    expect(dirRead?.text).toContain("Permission denied");
    expect(fileRead?.text).not.toContain("t0ken");
    expect(fileRead?.text).toContain(`- reading ${where.home}/token: it is in sandbox.filesystem.denyRead`);
    expect(publicRead).toEqual({ isError: false, text: "hello" });
  });

  test.skipIf(!hasCurl)("curl reaches an allowed host:port through the proxy; another port is refused and never contacted", async () => {
    const allowed = logServer("allowed says hi\n");
    const other = logServer("should never be seen\n");
    const where = setup({ network: { allowedDomains: [`127.0.0.1:${allowed.port}`] } });
    const outcome = await runCommands(where, [
      { command: `curl -sS ${allowed.url}/ok` },
      { command: `curl -sS --fail ${other.url}/secret` },
      { command: `curl -sS https://127.0.0.1:${other.port}/tls` },
    ]);
    expect(outcome.denials).toEqual([]);
    const [ok, plain, tunnel] = outcome.results;
    expect(ok).toEqual({ isError: false, text: "allowed says hi" });
    expect(allowed.log).toEqual(["GET /ok"]);
    expect(other.log).toEqual([]);
    expect(plain?.text).toContain("403");
    expect(plain?.text).toContain(`- connecting to 127.0.0.1:${other.port}: it is not in sandbox.network.allowedDomains`);
    expect(tunnel?.text).toContain("CONNECT tunnel failed, response 403");
    expect(tunnel?.text).toContain("sandbox.network.allowedDomains");
  });

  test("denied domains beat allowed ones", async () => {
    const web = logServer("x\n");
    const where = setup({ network: { allowedDomains: ["127.0.0.1"], deniedDomains: [`127.0.0.1:${web.port}`] } });
    const outcome = await runCommands(where, [{ command: `curl -sS --fail ${web.url}/` }]);
    expect(web.log).toEqual([]);
    expect(outcome.results[0]?.text).toContain(`in sandbox.network.deniedDomains`);
  });

  test("excludedCommands and an honoured dangerouslyDisableSandbox run outside the sandbox, so they ask (and -p denies)", async () => {
    const where = setup({ excludedCommands: ["touch"] });
    const outcome = await runCommands(where, [
      { command: "echo a > a.txt && touch b.txt" },
      { command: "echo c > c.txt", dangerouslyDisableSandbox: true },
      { command: "echo d > d.txt" },
    ]);
    expect(outcome.denials).toEqual(["echo a > a.txt && touch b.txt", "echo c > c.txt"]);
    expect(existsSync(join(where.dir, "a.txt"))).toBe(false);
    expect(existsSync(join(where.dir, "c.txt"))).toBe(false);
    expect(readFileSync(join(where.dir, "d.txt"), "utf8")).toBe("d\n");
  });

  test("with allowUnsandboxedCommands false, dangerouslyDisableSandbox is ignored: the command stays sandboxed", async () => {
    const where = setup({ allowUnsandboxedCommands: false });
    const outcome = await runCommands(where, [{ command: "echo x > ~/escape; echo ran", dangerouslyDisableSandbox: true }]);
    expect(outcome.denials).toEqual([]);
    expect(existsSync(join(where.home, "escape"))).toBe(false);
    expect(outcome.results[0]?.text).toContain("ran");
    expect(outcome.results[0]?.text).not.toContain("dangerouslyDisableSandbox: true");
  });

  test("deny rules still apply to sandboxed commands, and autoAllowBashIfSandboxed false asks as usual", async () => {
    const where = setup({ autoAllowBashIfSandboxed: false });
    writeFileSync(join(where.dir, "keep.txt"), "kept\n");
    const outcome = await runCommands(where, [{ command: "echo y > y.txt" }]);
    expect(outcome.denials).toEqual(["echo y > y.txt"]);
    const denied = setup({ excludedCommands: [] });
    writeFileSync(join(denied.configDir, "settings.json"), JSON.stringify({ sandbox: { enabled: true }, permissions: { deny: ["Bash(rm *)"] } }));
    writeFileSync(join(denied.dir, "keep.txt"), "kept\n");
    const second = await runCommands(denied, [{ command: "rm keep.txt" }]);
    expect(second.denials).toEqual(["rm keep.txt"]);
    expect(existsSync(join(denied.dir, "keep.txt"))).toBe(true);
  });
});

/** A PATH holding the commands a session needs, without bwrap. */
function pathWithoutBwrap(): string {
  const bin = tempDirectory("clew-sbx-bin-");
  for (const name of ["bash", "sh", "env", "cat", "echo", "touch", "ls", "git", "true"]) {
    const target = Bun.which(name);
    if (target) symlinkSync(target, join(bin, name));
  }
  return bin;
}

describe("scenario: Bash sandbox unavailable", () => {
  test("without bwrap on PATH the fallback is announced once and commands ask as before (-p denies them)", async () => {
    const where = setup({});
    const outcome = await runCommands(where, [{ command: "echo z > z.txt" }], { PATH: pathWithoutBwrap() });
    expect(outcome.code).toBe(0);
    const notices = outcome.stderr.split("\n").filter((line) => line.includes("sandbox"));
    expect(notices).toEqual([
      "clew: sandbox.enabled is set but the sandbox cannot start: bubblewrap (bwrap) is not on PATH (install it (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)). Bash commands run unsandboxed and ask for approval as usual.",
    ]);
    expect(outcome.denials).toEqual(["echo z > z.txt"]);
    expect(existsSync(join(where.dir, "z.txt"))).toBe(false);
  });

  test("failIfUnavailable: clew refuses to start, saying why", async () => {
    const where = setup({ failIfUnavailable: true });
    server = await startFakeAnthropic({ script: [reply().text("never")] });
    const run = await runClew(["-p", "hi"], { cwd: where.dir, baseURL: server.url, configDir: where.configDir, env: { HOME: where.home, PATH: pathWithoutBwrap() } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("The Bash sandbox cannot start: bubblewrap (bwrap) is not on PATH.");
    expect(run.stderr).toContain("unset sandbox.failIfUnavailable");
    expect(server.requests).toEqual([]);
  });
});

describe("scenario: clew doctor and the sandbox", () => {
  test.skipIf(!hasBwrap)("enabled and working: a passing check with the boundary", async () => {
    const where = setup({ network: { allowedDomains: ["github.com"] } });
    const run = await runClew(["doctor"], { cwd: where.dir, configDir: where.configDir, env: { HOME: where.home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } });
    const lines = run.stdout.split("\n");
    const at = lines.findIndex((line) => line.includes("Bash sandbox:"));
    expect(lines[at]).toBe("  ✓ Bash sandbox: on: Bash commands run in the OS sandbox (/usr/bin/bwrap) without asking");
    expect(lines.slice(at + 1, at + 12)).toContain(`      Writable: ${where.dir}`);
    expect(lines.slice(at + 1, at + 12)).toContain("      Network, allowed hosts: github.com");
  });

  test("enabled but unavailable: a failing check that says what happens instead", async () => {
    const where = setup({});
    const run = await runClew(["doctor"], { cwd: where.dir, configDir: where.configDir, env: { HOME: where.home, PATH: pathWithoutBwrap(), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("  ✗ Bash sandbox: enabled but unavailable: bubblewrap (bwrap) is not on PATH (install it (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)); Bash commands run unsandboxed and ask for approval as usual");
  });
});
