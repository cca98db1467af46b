/**
 * Test releases: real ones made by scripts/release.ts with a throwaway Ed25519 key, and
 * hand-signed release folders laid out the same way for the cases a real release never produces
 * (wrong platform, a failing binary, another key).
 */
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Platform, type ReleaseManifest, releaseFileName } from "../../src/update/manifest.ts";

const ROOT = resolve(import.meta.dir, "../..");

export interface ReleaseKey {
  privateKey: KeyObject;
  publicPem: string;
}

export function throwawayKey(): ReleaseKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { privateKey, publicPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

/**
 * Makes a real release of clew for one platform with scripts/release.ts, signed with `key`
 * (whose public half the binary embeds); returns the path of the platform's binary in `out`.
 */
export function releaseWithScript(out: string, version: string, key: ReleaseKey, platform: Platform): string {
  mkdirSync(out, { recursive: true });
  const signingKey = join(out, "..", `signing-${version}.pem`);
  writeFileSync(signingKey, key.privateKey.export({ type: "pkcs8", format: "pem" }).toString(), { mode: 0o600 });
  const run = Bun.spawnSync(["bun", join(ROOT, "scripts/release.ts"), "--version", version, "--out", out, "--signing-key", signingKey, "--platforms", platform], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`scripts/release.ts failed (${run.exitCode}): ${run.stderr.toString()}`);
  return join(out, releaseFileName(platform));
}

export function sha256File(path: string): string {
  return new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
}

export interface ReleaseSpec {
  version: string;
  channel?: "latest" | "stable";
  /** Platform → the file to publish for it. */
  files: Partial<Record<Platform, string>>;
  key: ReleaseKey;
  /** Runs after the manifest is signed, to break the release the way a test needs. */
  tamper?: (folder: string, manifest: ReleaseManifest) => void;
}

/** Writes a release folder as scripts/release.ts lays it out; returns its manifest. */
export function writeRelease(folder: string, spec: ReleaseSpec): ReleaseManifest {
  mkdirSync(folder, { recursive: true });
  const platforms: ReleaseManifest["platforms"] = {};
  for (const [platform, source] of Object.entries(spec.files) as [Platform, string][]) {
    const file = releaseFileName(platform);
    copyFileSync(source, join(folder, file));
    platforms[platform] = { file, size: statSync(source).size, sha256: sha256File(source) };
  }
  const manifest: ReleaseManifest = { version: spec.version, channel: spec.channel ?? "latest", date: "2026-12-01T00:00:00.000Z", platforms };
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(folder, "manifest.json"), bytes);
  writeFileSync(join(folder, "manifest.json.sig"), sign(null, bytes, spec.key.privateKey).toString("base64"));
  spec.tamper?.(folder, manifest);
  return manifest;
}
