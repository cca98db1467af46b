// scripts/install.sh (run by dash, a strict POSIX sh) installs a signed release from a local
// folder, file:// and http://127.0.0.1 into a fresh HOME, and refuses a tampered, truncated or
// foreign-signed one without leaving anything at the destination.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDirectory } from "../helpers/clew-process.ts";
import { releaseWithScript, type ReleaseKey, sha256File, throwawayKey, writeRelease } from "../helpers/release-fixture.ts";
import { releaseFileName, type Platform } from "../../src/update/manifest.ts";
import { machineFacts, platformFor } from "../../src/update/platform.ts";

const SCRIPT = resolve(import.meta.dir, "../../scripts/install.sh");
// dash is a strict POSIX sh (and Debian's /bin/sh); elsewhere the system sh.
const SH = Bun.which("dash") ?? "sh";
const platform = platformFor(machineFacts()) as Platform;
let root = "";
let key: ReleaseKey;
let keyFile = "";
let binary = "";
let releases = "";
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  root = tempDirectory("clew-install-script-");
  key = throwawayKey();
  keyFile = join(root, "release.pem");
  writeFileSync(keyFile, key.publicPem);
  releases = join(root, "releases");
  binary = releaseWithScript(join(releases, "good/latest"), "1.2.3", key, platform);
  writeRelease(join(releases, "other-key/latest"), { version: "1.2.3", files: { [platform]: binary }, key: throwawayKey() });
  writeRelease(join(releases, "tampered/latest"), {
    version: "1.2.3",
    files: { [platform]: binary },
    key,
    tamper: (folder) => {
      const file = join(folder, releaseFileName(platform));
      const bytes = readFileSync(file);
      bytes[1000] = (bytes[1000] ?? 0) ^ 0xff;
      writeFileSync(file, bytes);
    },
  });
  writeRelease(join(releases, "truncated/latest"), {
    version: "1.2.3",
    files: { [platform]: binary },
    key,
    tamper: (folder) => truncateSync(join(folder, releaseFileName(platform)), 4096),
  });
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const file = Bun.file(join(releases, new URL(request.url).pathname));
      return (await file.exists()) ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
}, 60_000);

afterAll(() => {
  server?.stop(true);
  if (root) rmSync(root, { recursive: true, force: true });
});

let homes = 0;
async function install(source: string, extra: Record<string, string> = {}) {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home, { recursive: true });
  const env = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, CLEW_DOWNLOAD_URL: source, CLEW_TRUSTED_KEY: keyFile, ...extra };
  const child = Bun.spawn([SH, SCRIPT], { cwd: home, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { home, code, stdout, stderr, bin: join(home, ".local/bin") };
}

function versionOf(path: string): string {
  return Bun.spawnSync([path, "--version"], { stdout: "pipe" }).stdout.toString().trim();
}

describe("install.sh", () => {
  for (const form of ["folder", "file://", "http"] as const) {
    test(`installs from ${form === "http" ? "http://127.0.0.1" : `a ${form}`} into ~/.local/bin of a fresh HOME and prints the PATH line`, async () => {
      const folder = join(releases, "good/latest");
      const source = form === "folder" ? folder : form === "file://" ? `file://${folder}` : `http://127.0.0.1:${server.port}/good/latest`;
      const result = await install(source);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout.split("\n")).toEqual([
        `Installing clew for ${platform} from ${source}`,
        `Verified manifest.json, signed by the key in ${keyFile} (CLEW_TRUSTED_KEY)`,
        `Downloading ${releaseFileName(platform)} (${readFileSync(binary).length} bytes)…`,
        `Verified ${releaseFileName(platform)}: size, sha256, and --version prints 1.2.3`,
        `clew 1.2.3 installed to ${result.bin}/clew`,
        `${result.bin} is not on your PATH. Add it with:`,
        `  echo 'export PATH="${result.bin}:$PATH"' >> ~/.profile   # or ~/.bashrc, ~/.zshrc`,
        "",
      ]);
      expect(readdirSync(result.bin)).toEqual(["clew"]);
      expect(sha256File(join(result.bin, "clew"))).toBe(sha256File(binary));
      expect(versionOf(join(result.bin, "clew"))).toBe("1.2.3 (clew)");
    });
  }

  test("CLEW_INSTALL_DIR already on PATH: installs there, no PATH hint", async () => {
    const dir = join(root, "custom-bin");
    const result = await install(join(releases, "good/latest"), { CLEW_INSTALL_DIR: dir, PATH: `${dir}:/usr/local/bin:/usr/bin:/bin` });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n").at(-1)).toBe(`clew 1.2.3 installed to ${dir}/clew`);
    expect(versionOf(join(dir, "clew"))).toBe("1.2.3 (clew)");
  });

  const refusals: [string, string][] = [
    ["other-key", `clew install: signature check failed: manifest.json is not signed by the key in KEY (CLEW_TRUSTED_KEY)`],
    ["tampered", "clew install: sha256 check failed: "],
    ["truncated", `clew install: size check failed: ${releaseFileName(platform)} is 4096 bytes, the signed manifest says `],
  ];
  for (const [release, message] of refusals) {
    test(`${release}: refused, nothing left at the destination and an existing clew byte-identical`, async () => {
      const fresh = await install(join(releases, release, "latest"));
      expect(fresh.code).toBe(1);
      expect(fresh.stderr.startsWith(message.replace("KEY", keyFile))).toBe(true);
      expect(existsSync(fresh.bin) ? readdirSync(fresh.bin) : []).toEqual([]);

      const home = join(root, `home-${++homes}`);
      const bin = join(home, ".local/bin");
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, "clew"), "#!/bin/sh\necho 0.9.0\n", { mode: 0o755 });
      const before = sha256File(join(bin, "clew"));
      const child = Bun.spawn([SH, SCRIPT], { env: { PATH: "/usr/bin:/bin", HOME: home, CLEW_DOWNLOAD_URL: join(releases, release, "latest"), CLEW_TRUSTED_KEY: keyFile }, stdout: "pipe", stderr: "pipe" });
      expect(await child.exited).toBe(1);
      expect(readdirSync(bin)).toEqual(["clew"]);
      expect(sha256File(join(bin, "clew"))).toBe(before);
    });
  }

  test("without an embedded key or CLEW_TRUSTED_KEY it refuses, naming the variable", async () => {
    const result = await install(join(releases, "good/latest"), { CLEW_TRUSTED_KEY: "" });
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 1,
      stderr: "clew install: this install script has no embedded release key; set CLEW_TRUSTED_KEY to the release's PEM public key file\n",
    });
  });
});
