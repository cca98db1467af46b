// clew update through the compiled binary against releases served from 127.0.0.1: each check
// that can reject an update does so by name and leaves the installed binary byte-identical.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDirectory } from "../helpers/clew-process.ts";
import { releaseWithScript, type ReleaseKey, sha256File, throwawayKey, writeRelease } from "../helpers/release-fixture.ts";
import { releaseFileName, type Platform } from "../../src/update/manifest.ts";
import { machineFacts, platformFor } from "../../src/update/platform.ts";
import { checkPendingRollback, markStartupHealthy } from "../../src/update/rollback.ts";
import { badVersions, updateStateDir } from "../../src/update/state.ts";
import { backgroundUpdateNotice } from "../../src/app/self-update.ts";
import { readEnvironment } from "../../src/settings/paths.ts";

const ROOT = resolve(import.meta.dir, "../..");
let root = "";
let key: ReleaseKey;
let otherKey: ReleaseKey;
let v1 = "";
let v2 = "";
let server: ReturnType<typeof Bun.serve>;
const requests: string[] = [];
const platform = platformFor(machineFacts()) as Platform;

beforeAll(async () => {
  root = tempDirectory("clew-self-update-");
  key = throwawayKey();
  otherKey = throwawayKey();
  v1 = releaseWithScript(join(root, "made/1.0.0"), "1.0.0", key, platform);
  const release2 = join(root, "made/2.0.0");
  v2 = releaseWithScript(release2, "2.0.0", key, platform);
  const releases = join(root, "releases");
  const at = (name: string) => join(releases, name, "latest");
  // Real releases as scripts/release.ts wrote them, then broken after signing where a case needs it.
  for (const name of ["good", "slow", "tampered", "truncated"]) cpSync(release2, at(name), { recursive: true });
  const served = (name: string) => join(at(name), releaseFileName(platform));
  const tampered = readFileSync(served("tampered"));
  tampered[tampered.length - 100] = (tampered[tampered.length - 100] ?? 0) ^ 0xff;
  writeFileSync(served("tampered"), tampered);
  truncateSync(served("truncated"), Math.floor(tampered.length / 2));
  writeRelease(at("other-key"), { version: "2.0.0", files: { [platform]: v2 }, key: otherKey });
  const elsewhere: Platform = platform === "darwin-arm64" ? "linux-arm64" : "darwin-arm64";
  writeRelease(at("no-build-here"), { version: "2.0.0", files: { [elsewhere]: v2 }, key });
  // A signed manifest that lists a macOS executable as this platform's build.
  const macho = join(root, "made/macho");
  writeFileSync(macho, Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0x00, 0x00, 0x01]), Buffer.alloc(4096, 1)]));
  writeRelease(at("wrong-platform"), { version: "2.0.0", files: { [platform]: macho }, key });
  // A real executable of this platform whose --version fails.
  writeRelease(at("broken-version"), { version: "3.0.0", files: { [platform]: "/bin/false" }, key });
  // A 2.0.0 binary published as 3.0.0: its --version prints the wrong version.
  writeRelease(at("mislabelled"), { version: "3.0.0", files: { [platform]: v2 }, key });
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(path);
      const file = Bun.file(join(releases, path));
      if (!(await file.exists())) return new Response("not found", { status: 404 });
      if (path.startsWith("/slow/") && path.endsWith(releaseFileName(platform))) await Bun.sleep(1500);
      return new Response(file);
    },
  });
}, 120_000);

afterAll(() => {
  server?.stop(true);
  if (root) rmSync(root, { recursive: true, force: true });
});

interface Install {
  dir: string;
  binary: string;
  configDir: string;
}

let installs = 0;
function freshInstall(): Install {
  const base = join(root, `install-${++installs}`);
  const dir = join(base, "bin");
  const configDir = join(base, "config");
  mkdirSync(dir, { recursive: true });
  mkdirSync(configDir, { recursive: true });
  const binary = join(dir, "clew");
  copyFileSync(v1, binary);
  return { dir, binary, configDir };
}

function envFor(install: Install, release: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: install.configDir,
    CLEW_CONFIG_DIR: install.configDir,
    NO_COLOR: "1",
    CLEW_UPDATE_URL: `http://127.0.0.1:${server.port}/${release}/latest`,
    ...extra,
  };
}

async function run(binary: string, args: string[], env: Record<string, string>) {
  const child = Bun.spawn([binary, ...args], { cwd: root, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

async function versionOf(binary: string): Promise<string> {
  return (await run(binary, ["--version"], { PATH: process.env.PATH ?? "/usr/bin:/bin" })).stdout.trim();
}

describe("clew update", () => {
  test("installs a newer signed release: the new version runs, the old one is kept as clew.previous", async () => {
    const install = freshInstall();
    const result = await run(install.binary, ["update"], envFor(install, "good"));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n").filter((line) => !line.startsWith("  "));
    expect(lines).toEqual([
      "Checking for updates…",
      `Checking http://127.0.0.1:${server.port}/good/latest for updates…`,
      "Verified manifest.json: clew 2.0.0 (latest), signed by the release key built into clew",
      `Downloading ${releaseFileName(platform)} (${(readFileSync(v2).length / 1e6).toFixed(1)} MB)…`,
      `Verified ${releaseFileName(platform)}: size, sha256 and ${platform} executable`,
      "Smoke test passed: clew --version printed 2.0.0",
      "Successfully updated from 1.0.0 to version 2.0.0",
      `The previous binary is kept as ${install.binary}.previous (clew update --rollback restores it). Restart clew to use 2.0.0.`,
    ]);
    expect(await versionOf(install.binary)).toBe("2.0.0 (clew)");
    expect(sha256File(install.binary)).toBe(sha256File(v2));
    expect(sha256File(`${install.binary}.previous`)).toBe(sha256File(v1));
    expect(readdirSync(install.dir).sort()).toEqual(["clew", "clew.previous"]);

    // Running the update again: the new binary knows it is current.
    const again = await run(install.binary, ["update"], envFor(install, "good"));
    expect({ code: again.code, last: again.stdout.trim().split("\n").at(-1) }).toEqual({ code: 0, last: "clew is up to date (2.0.0)" });

    // --rollback restores 1.0.0 and keeps 2.0.0 as the previous one.
    const rollback = await run(install.binary, ["update", "--rollback"], envFor(install, "good"));
    expect(rollback.code).toBe(0);
    expect(await versionOf(install.binary)).toBe("1.0.0 (clew)");
    expect(sha256File(`${install.binary}.previous`)).toBe(sha256File(v2));
    expect(badVersions(updateStateDir(install.configDir))).toEqual(["2.0.0"]);
  });

  const rejections: [string, string, string][] = [
    ["tampered", "sha256", "does not match the signed manifest's"],
    ["other-key", "signature", "is not signed by the trusted release key"],
    ["truncated", "size", "the download is truncated"],
    ["no-build-here", "platform", `has no build for ${platform}`],
    ["wrong-platform", "platform", `is listed for ${platform} but is darwin-arm64`],
    ["broken-version", "smoke-test", "--version smoke test failed: it exited with code 1"],
    ["mislabelled", "smoke-test", 'it printed "2.0.0 (clew)", not version 3.0.0'],
  ];
  for (const [release, check, detail] of rejections) {
    test(`${release}: rejected by the ${check} check, the installed binary byte-identical and still working`, async () => {
      const install = freshInstall();
      const before = sha256File(install.binary);
      const result = await run(install.binary, ["update"], envFor(install, release));
      expect(result.code).toBe(1);
      const [first, second] = result.stderr.trim().split("\n");
      expect(first?.startsWith(`clew update: the ${check} check failed: `)).toBe(true);
      expect(first).toContain(detail);
      expect(second).toBe(`The installed clew at ${install.binary} is unchanged.`);
      expect(sha256File(install.binary)).toBe(before);
      expect(await versionOf(install.binary)).toBe("1.0.0 (clew)");
      expect(readdirSync(install.dir)).toEqual(["clew"]);
      expect(existsSync(join(updateStateDir(install.configDir), "pending-start.json"))).toBe(false);
    });
  }

  test("CLEW_TRUSTED_KEY trusts a mirror's own key instead of the embedded one", async () => {
    const install = freshInstall();
    const pem = join(install.configDir, "mirror.pem");
    writeFileSync(pem, otherKey.publicPem);
    const result = await run(install.binary, ["update"], envFor(install, "other-key", { CLEW_TRUSTED_KEY: pem }));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`signed by the key in ${pem} (CLEW_TRUSTED_KEY)`);
    expect(await versionOf(install.binary)).toBe("2.0.0 (clew)");
    // …and then the embedded key alone no longer verifies that mirror.
    const refused = await run(install.binary, ["update", "--yes", "2.0.0"], envFor(install, "other-key"));
    expect(refused.stderr.split("\n")[0]?.startsWith("clew update: the signature check failed:")).toBe(true);
  });

  test("downloads go through HTTP_PROXY, and NO_PROXY hosts are reached directly (a failure names the host)", async () => {
    const install = freshInstall();
    // The release server doubles as the proxy: a proxied request carries the absolute URL.
    const proxied = { CLEW_UPDATE_URL: "http://releases.invalid/good/latest", HTTP_PROXY: `http://127.0.0.1:${server.port}` };
    const direct = await run(install.binary, ["update"], envFor(install, "good", { ...proxied, NO_PROXY: "releases.invalid" }));
    expect(direct.code).toBe(1);
    expect(direct.stderr.split("\n")[0]).toStartWith("clew update: the source check failed: could not reach releases.invalid for http://releases.invalid/good/latest/manifest.json: ");
    const viaProxy = await run(install.binary, ["update"], envFor(install, "good", proxied));
    expect(viaProxy.code).toBe(0);
    expect(await versionOf(install.binary)).toBe("2.0.0 (clew)");
  });

  test("a TLS failure names the host and says it is the certificate", async () => {
    const install = freshInstall();
    const tlsDir = join(root, "tls");
    mkdirSync(tlsDir, { recursive: true });
    const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1", "-days", "1", "-keyout", join(tlsDir, "key.pem"), "-out", join(tlsDir, "cert.pem")], { stdout: "pipe", stderr: "pipe" });
    expect(made.exitCode).toBe(0);
    const selfSigned = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert: Bun.file(join(tlsDir, "cert.pem")), key: Bun.file(join(tlsDir, "key.pem")) }, fetch: () => new Response("{}") });
    try {
      const result = await run(install.binary, ["update"], envFor(install, "good", { CLEW_UPDATE_URL: `https://127.0.0.1:${selfSigned.port}/good/latest` }));
      expect(result.code).toBe(1);
      expect(result.stderr.split("\n")[0]).toBe(
        `clew update: the source check failed: TLS error talking to 127.0.0.1:${selfSigned.port} (DEPTH_ZERO_SELF_SIGNED_CERT): the certificate was not accepted; a proxy that intercepts TLS needs its CA in NODE_EXTRA_CA_CERTS`,
      );
      expect(sha256File(install.binary)).toBe(sha256File(v1));
    } finally {
      selfSigned.stop(true);
    }
  });

  test("a pinned version is never replaced (CLEW_PIN_VERSION and setting pinnedVersion)", async () => {
    const install = freshInstall();
    const before = sha256File(install.binary);
    const byEnv = await run(install.binary, ["update"], envFor(install, "good", { CLEW_PIN_VERSION: "1.0.0" }));
    expect({ code: byEnv.code, stdout: byEnv.stdout }).toEqual({ code: 0, stdout: "Checking for updates…\nclew is pinned to 1.0.0 (CLEW_PIN_VERSION); not updating\n" });
    writeFileSync(join(install.configDir, "settings.json"), JSON.stringify({ pinnedVersion: "1.0.0" }));
    const bySetting = await run(install.binary, ["update", "2.0.0", "--yes"], envFor(install, "good"));
    expect({ code: bySetting.code, stdout: bySetting.stdout }).toEqual({ code: 1, stdout: "Checking for updates…\nclew is pinned to 1.0.0 (setting pinnedVersion); not updating\n" });
    expect(sha256File(install.binary)).toBe(before);
  });

  test("two concurrent updates leave one valid binary; the loser reports and exits 0", async () => {
    const install = freshInstall();
    // The second starts once the first holds the lock (its download then takes 1.5 s): on a loaded
    // machine two processes started together need not overlap at all.
    const first = run(install.binary, ["update"], envFor(install, "slow"));
    const lock = join(updateStateDir(install.configDir), "update.lock");
    for (let waited = 0; !existsSync(lock) && waited < 10_000; waited += 10) await Bun.sleep(10);
    const [a, b] = await Promise.all([first, run(install.binary, ["update"], envFor(install, "slow"))]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const outputs = [a.stdout, b.stdout];
    expect(outputs.filter((out) => out.includes("Successfully updated from 1.0.0 to version 2.0.0")).length).toBe(1);
    expect(outputs.filter((out) => /another clew update is running \(pid \d+\)/.test(out)).length).toBe(1);
    expect(sha256File(install.binary)).toBe(sha256File(v2));
    expect(sha256File(`${install.binary}.previous`)).toBe(sha256File(v1));
    expect(readdirSync(install.dir).sort()).toEqual(["clew", "clew.previous"]);
    expect(existsSync(join(updateStateDir(install.configDir), "update.lock"))).toBe(false);
  });
});

describe("rollback of a version whose first start crashes", () => {
  async function updatedInstall(): Promise<Install> {
    const install = freshInstall();
    const result = await run(install.binary, ["update"], envFor(install, "good"));
    expect(result.code).toBe(0);
    return install;
  }

  /** A real process that runs the start-up check as the new version, then ends the given way. */
  async function firstStart(install: Install, ending: "crash" | "clean" | "healthy-then-crash"): Promise<string> {
    const script = [
      `import { checkPendingRollback, markStartupHealthy } from ${JSON.stringify(join(ROOT, "src/update/rollback.ts"))};`,
      `const check = checkPendingRollback({ stateDir: ${JSON.stringify(updateStateDir(install.configDir))}, binaryPath: ${JSON.stringify(install.binary)}, runningVersion: "2.0.0", session: true });`,
      "console.log(check.kind);",
      ending === "healthy-then-crash" ? `markStartupHealthy(${JSON.stringify(updateStateDir(install.configDir))});` : "",
      ending === "clean" ? "process.exit(0);" : "process.kill(process.pid, 'SIGKILL');",
    ].join("\n");
    const child = Bun.spawn(["bun", "-e", script], { stdout: "pipe", stderr: "pipe" });
    const [stdout] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    return stdout.trim();
  }

  const nextStart = (install: Install, runningVersion: string, session = true) =>
    checkPendingRollback({ stateDir: updateStateDir(install.configDir), binaryPath: install.binary, runningVersion, session });

  test("a first start killed before its first request: the next start restores clew.previous", async () => {
    const install = await updatedInstall();
    // A start that runs no session (clew update, --version) is not watched.
    expect(nextStart(install, "2.0.0", false)).toEqual({ kind: "none" });
    expect(await firstStart(install, "crash")).toBe("first-start");
    expect(nextStart(install, "2.0.0")).toEqual({ kind: "rolled-back", from: "2.0.0", to: "1.0.0", binaryPath: install.binary });
    expect(sha256File(install.binary)).toBe(sha256File(v1));
    expect(sha256File(`${install.binary}.previous`)).toBe(sha256File(v2));
    expect(await versionOf(install.binary)).toBe("1.0.0 (clew)");
    expect(badVersions(updateStateDir(install.configDir))).toEqual(["2.0.0"]);
    expect(nextStart(install, "1.0.0")).toEqual({ kind: "none" });
    // The background check does not bring the bad version back.
    const pem = join(install.configDir, "release.pem");
    writeFileSync(pem, key.publicPem);
    const base = readEnvironment(envFor(install, "good", { CLEW_TRUSTED_KEY: pem }), root);
    const env = { ...base, update: { ...base.update, executablePath: install.binary } };
    expect(await backgroundUpdateNotice(env, {}, "1.0.0", new Date("2026-12-05T10:00:00Z"))).toBeUndefined();
    expect(sha256File(install.binary)).toBe(sha256File(v1));
  });

  test("through the binaries: a session killed before its first response rolls back at the next start; a clear error exit does not", async () => {
    // The API accepts connections and never answers: the new version's first request gets no response.
    const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => undefined) });
    try {
      const install = await updatedInstall();
      const pending = join(updateStateDir(install.configDir), "pending-start.json");
      const api = { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: `http://127.0.0.1:${silent.port}`, CLEW_STREAM_IDLE_TIMEOUT_MS: "60000" };
      // A clear error (no credentials) is the new version working: it is kept.
      const noKey = await run(install.binary, ["-p", "hi"], envFor(install, "good"));
      expect(noKey.code).toBe(1);
      // Had that counted as a crash, this next session start would roll back.
      const again = await run(install.binary, ["-p", "hi"], envFor(install, "good"));
      expect(again.stderr).not.toContain("did not start after the update");
      expect(await versionOf(install.binary)).toBe("2.0.0 (clew)");
      // Update again from 1.0.0, then kill the new version's first session before any response.
      expect((await run(install.binary, ["update", "--rollback"], envFor(install, "good"))).code).toBe(0);
      rmSync(join(updateStateDir(install.configDir), "bad-versions.json"), { force: true });
      expect((await run(install.binary, ["update"], envFor(install, "good"))).code).toBe(0);
      const session = Bun.spawn([install.binary, "-p", "hi"], { cwd: root, env: envFor(install, "good", api), stdout: "ignore", stderr: "ignore" });
      for (let i = 0; i < 200 && !readFileSync(pending, "utf8").includes('"starting"'); i++) await Bun.sleep(25);
      session.kill("SIGKILL");
      await session.exited;
      const next = await run(install.binary, ["-p", "hi"], envFor(install, "good", { ...api, ANTHROPIC_BASE_URL: "http://127.0.0.1:9", CLEW_MAX_RETRIES: "0" }));
      expect(next.stderr).toContain("clew 2.0.0 did not start after the update; restored 1.0.0");
      expect(await versionOf(install.binary)).toBe("1.0.0 (clew)");
    } finally {
      silent.stop(true);
    }
  }, 60_000);

  test("a first start that exits cleanly or sends its first request keeps the new version", async () => {
    const install = await updatedInstall();
    expect(await firstStart(install, "clean")).toBe("first-start");
    // A clean exit before any request does not count: the next start is again the first.
    expect(await firstStart(install, "healthy-then-crash")).toBe("first-start");
    expect(nextStart(install, "2.0.0")).toEqual({ kind: "none" });
    expect(sha256File(install.binary)).toBe(sha256File(v2));
    markStartupHealthy(updateStateDir(install.configDir));
    expect(existsSync(join(updateStateDir(install.configDir), "pending-start.json"))).toBe(false);
  });
});

describe("background check", () => {
  test("installs at most once a day and says so in one line; off when autoUpdates is false", async () => {
    const install = freshInstall();
    const pem = join(install.configDir, "release.pem");
    writeFileSync(pem, key.publicPem);
    const base = readEnvironment(envFor(install, "good", { CLEW_TRUSTED_KEY: pem }), root);
    const env = { ...base, update: { ...base.update, executablePath: install.binary } };
    const now = new Date("2026-12-01T10:00:00Z");
    expect(await backgroundUpdateNotice(env, { autoUpdates: false }, "1.0.0", now)).toBeUndefined();
    expect(sha256File(install.binary)).toBe(sha256File(v1));

    expect(await backgroundUpdateNotice(env, {}, "1.0.0", now)).toBe("clew 2.0.0 installed; restart to use it");
    expect(sha256File(install.binary)).toBe(sha256File(v2));
    const asked = requests.length;
    expect(await backgroundUpdateNotice(env, {}, "1.0.0", new Date("2026-12-01T20:00:00Z"))).toBeUndefined();
    expect(requests.length).toBe(asked);
    const disabled = { ...env, update: { ...env.update, disableAutoUpdate: { disabled: true, by: "DISABLE_AUTOUPDATER" } } };
    expect(await backgroundUpdateNotice(disabled, {}, "1.0.0", new Date("2026-12-03T10:00:00Z"))).toBeUndefined();
    expect(requests.length).toBe(asked);
  });
});
