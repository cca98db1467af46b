// scripts/release.ts for the host platform only (one compile is ~5-10 s): the binary it writes
// runs and reports the release version, the manifest describes that exact file, the signature
// verifies with the signing key's public half and no other key, and the trusted key is embedded.
import { beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync, createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { verifyManifest } from "../../src/update/manifest.ts";
import { tempDirectory } from "../helpers/clew-process.ts";

const ROOT = resolve(import.meta.dir, "../..");
const VERSION = "9.8.7-test.1";
const COMPILE_TIMEOUT = 180_000;

interface KeyFiles {
  privatePath: string;
  publicPath: string;
  publicPem: string;
}

function throwawayKey(dir: string, name: string): KeyFiles {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const privatePath = join(dir, `${name}.pem`);
  const publicPath = join(dir, `${name}.pub.pem`);
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  writeFileSync(privatePath, privateKey.export({ type: "pkcs8", format: "pem" }));
  writeFileSync(publicPath, publicPem);
  return { privatePath, publicPath, publicPem };
}

/** The PEM's base64 body: what a binary that embeds the key contains, whatever the line breaks. */
const keyBody = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");

function runRelease(args: string[]) {
  const run = Bun.spawnSync(["bun", join(ROOT, "scripts/release.ts"), ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

function contains(file: string, text: string): boolean {
  return readFileSync(file).includes(Buffer.from(text));
}

const work = tempDirectory("clew-release-test-");
const signing = throwawayKey(work, "signing");
const other = throwawayKey(work, "other");
const out = join(work, "out");
const binary = join(out, "clew-linux-x64");

describe("scripts/release.ts on linux-x64", () => {
  beforeAll(() => {
    const run = runRelease(["--version", VERSION, "--channel", "stable", "--out", out, "--signing-key", signing.privatePath, "--platforms", "linux-x64"]);
    if (run.code !== 0) throw new Error(`release failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  }, COMPILE_TIMEOUT);

  test("the binary runs and --version prints the release version", () => {
    const run = Bun.spawnSync([binary, "--version"], { cwd: work, stdout: "pipe", stderr: "pipe" });
    expect({ code: run.exitCode, version: run.stdout.toString().trim().split(/\s+/)[0] }).toEqual({ code: 0, version: VERSION });
  });

  test("install.sh and install.ps1 are published beside the release with its public key, and install.sh installs with no other key", () => {
    expect(readFileSync(join(out, "install.sh"), "utf8")).toContain(`CLEW_RELEASE_PUBLIC_KEY='${signing.publicPem.trim()}'`);
    expect(readFileSync(join(out, "install.ps1"), "utf8")).toContain(`$ReleasePublicKey = '${signing.publicPem.trim()}'`);
    const home = tempDirectory("clew-release-home-");
    const run = Bun.spawnSync(["sh", join(out, "install.sh")], { cwd: work, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CLEW_DOWNLOAD_URL: out }, stdout: "pipe", stderr: "pipe" });
    expect(run.exitCode).toBe(0);
    expect(readFileSync(join(home, ".local/bin/clew")).equals(readFileSync(binary))).toBe(true);
  });

  test("manifest.json names the file with its exact size and sha256, and nothing else", () => {
    const manifest: unknown = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    const sha256 = createHash("sha256").update(readFileSync(binary)).digest("hex");
    expect(manifest).toEqual({
      version: VERSION,
      channel: "stable",
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      platforms: { "linux-x64": { file: "clew-linux-x64", size: statSync(binary).size, sha256 } },
    });
  });

  test("the signature verifies with the signing key's public half and not with another key", async () => {
    const bytes = readFileSync(join(out, "manifest.json"));
    const signature = readFileSync(join(out, "manifest.json.sig"), "utf8");
    const good = await verifyManifest(bytes, signature, signing.publicPem);
    expect(good).toEqual({ ok: true, manifest: JSON.parse(bytes.toString("utf8")) });
    const wrong = await verifyManifest(bytes, signature, other.publicPem);
    expect(wrong).toEqual({ ok: false, check: "signature", message: expect.stringContaining("not signed by the trusted release key") });
  });

  test("the binary embeds the signing key's public half as the trusted key", () => {
    expect({ signing: contains(binary, keyBody(signing.publicPem)), other: contains(binary, keyBody(other.publicPem)) }).toEqual({ signing: true, other: false });
  });

  test(
    "--trusted-key embeds that key instead, while the manifest is still signed with --signing-key",
    async () => {
      const mirrorOut = join(work, "mirror");
      const run = runRelease(["--version", VERSION, "--out", mirrorOut, "--signing-key", signing.privatePath, "--trusted-key", other.publicPath, "--platforms", "linux-x64"]);
      expect(run.code).toBe(0);
      const mirrorBinary = join(mirrorOut, "clew-linux-x64");
      expect({ signing: contains(mirrorBinary, keyBody(signing.publicPem)), other: contains(mirrorBinary, keyBody(other.publicPem)) }).toEqual({ signing: false, other: true });
      const check = await verifyManifest(readFileSync(join(mirrorOut, "manifest.json")), readFileSync(join(mirrorOut, "manifest.json.sig"), "utf8"), signing.publicPem);
      expect(check.ok).toBe(true);
    },
    COMPILE_TIMEOUT,
  );

  test("a project's bunfig.toml is not loaded by the binary: its preload never runs", () => {
    const project = join(work, "project");
    mkdirSync(project, { recursive: true });
    const marker = join(project, "preload-ran");
    writeFileSync(join(project, "preload.js"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
    writeFileSync(join(project, "bunfig.toml"), `preload = ["./preload.js"]\n`);
    const run = Bun.spawnSync([binary, "--version"], { cwd: project, stdout: "pipe", stderr: "pipe" });
    expect({ code: run.exitCode, preloadRan: existsSync(marker) }).toEqual({ code: 0, preloadRan: false });
  });
});

describe("scripts/release.ts refuses bad input before building", () => {
  const base = ["--version", "1.0.0", "--out", join(work, "refused")];

  test("a missing --signing-key is named", () => {
    const run = runRelease(base);
    expect({ code: run.code, names: run.stderr.includes("--signing-key is required") }).toEqual({ code: 1, names: true });
  });

  test("a signing key that is not Ed25519 is refused with the file and the command to make one", () => {
    const rsa = join(work, "rsa.pem");
    writeFileSync(rsa, generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }));
    const run = runRelease([...base, "--signing-key", rsa]);
    expect({ code: run.code, message: run.stderr.trim() }).toEqual({
      code: 1,
      message: `release: --signing-key ${rsa}: this is a rsa key; releases are signed with Ed25519 (openssl genpkey -algorithm ed25519 -out KEY.pem)`,
    });
  });

  test("a public key given as --signing-key is refused", () => {
    const run = runRelease([...base, "--signing-key", signing.publicPath]);
    expect({ code: run.code, names: run.stderr.includes(`--signing-key ${signing.publicPath}: not a private key`) }).toEqual({ code: 1, names: true });
  });

  test("an unknown platform is named with the list to choose from", () => {
    const run = runRelease([...base, "--signing-key", signing.privatePath, "--platforms", "linux-x64,solaris-sparc"]);
    expect({ code: run.code, message: run.stderr.trim() }).toEqual({
      code: 1,
      message: "release: --platforms: unknown platform solaris-sparc; choose from linux-x64, linux-x64-baseline, linux-arm64, linux-x64-musl, darwin-x64, darwin-arm64, windows-x64",
    });
    expect(existsSync(join(work, "refused", "manifest.json"))).toBe(false);
  });

  test("a version that is not major.minor.patch is refused", () => {
    const run = runRelease(["--version", "v1", "--out", join(work, "refused"), "--signing-key", signing.privatePath]);
    expect({ code: run.code, names: run.stderr.includes("--version v1: expected major.minor.patch") }).toEqual({ code: 1, names: true });
  });
});
