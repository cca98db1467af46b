/**
 * Test releases: a clew binary compiled with a release version and trusted public key embedded
 * (the two `define`s scripts/release.ts sets), and release folders holding per-platform files, a
 * manifest and its Ed25519 signature made with a throwaway key.
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

/** Compiles clew as a release would, minus bytecode (the tests need behaviour, not start-up speed). */
export async function buildReleaseBinary(outfile: string, version: string, trustedPublicPem: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src/main.ts")],
    compile: { outfile, autoloadDotenv: false, autoloadBunfig: false },
    minify: true,
    format: "esm",
    splitting: true,
    sourcemap: "none",
    target: "bun",
    define: { CLEW_BUILD_VERSION: JSON.stringify(version), CLEW_RELEASE_PUBLIC_KEY: JSON.stringify(trustedPublicPem) },
  });
  if (!result.success) throw new Error(`build of ${outfile} failed: ${result.logs.map(String).join("\n")}`);
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
