/**
 * The release manifest (distribution-mcp.md §1.2, clew's form) and its signature: `manifest.json`
 * lists, per platform, the file, its size and sha256; `manifest.json.sig` is an Ed25519 signature
 * over the exact bytes of `manifest.json`, base64-encoded. Verifying the signature with the key the
 * binary embeds verifies every checksum in it, so a mirror only has to serve the files.
 */

/** Platform keys, as release files and manifests name them. */
export const PLATFORMS = ["linux-x64", "linux-x64-baseline", "linux-arm64", "linux-x64-musl", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface PlatformFile {
  /** File name beside the manifest: `clew-<platform>` (`.exe` on Windows). */
  file: string;
  size: number;
  /** Lowercase hex. */
  sha256: string;
}

export interface ReleaseManifest {
  version: string;
  channel: "latest" | "stable";
  /** ISO time the release was made. */
  date: string;
  platforms: Partial<Record<Platform, PlatformFile>>;
}

export type ManifestCheck = { ok: true; manifest: ReleaseManifest } | { ok: false; check: "signature" | "manifest"; message: string };

export function releaseFileName(platform: Platform): string {
  return platform.startsWith("windows") ? `clew-${platform}.exe` : `clew-${platform}`;
}

function isManifest(value: unknown): value is ReleaseManifest {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  if (typeof candidate.version !== "string" || typeof candidate.date !== "string") return false;
  if (candidate.channel !== "latest" && candidate.channel !== "stable") return false;
  if (typeof candidate.platforms !== "object" || candidate.platforms === null) return false;
  return Object.entries(candidate.platforms).every(([key, entry]) => {
    if (!(PLATFORMS as readonly string[]).includes(key) || typeof entry !== "object" || entry === null) return false;
    const file = entry as Record<string, unknown>;
    return typeof file.file === "string" && typeof file.size === "number" && typeof file.sha256 === "string" && /^[0-9a-f]{64}$/.test(file.sha256);
  });
}

/**
 * Checks the signature over the exact manifest bytes with the trusted public key (PEM), then the
 * manifest's shape. Nothing in an unverified manifest is trusted, not even its version.
 */
export async function verifyManifest(manifestBytes: Uint8Array, signatureText: string, trustedKeyPem: string): Promise<ManifestCheck> {
  // node:crypto costs start-up memory: it loads only when an update is checked.
  const { createPublicKey, verify } = await import("node:crypto");
  let signed = false;
  try {
    const signature = Buffer.from(signatureText.trim(), "base64");
    signed = signature.length === 64 && verify(null, manifestBytes, createPublicKey(trustedKeyPem), signature);
  } catch {
    signed = false;
  }
  if (!signed) return { ok: false, check: "signature", message: "manifest.json is not signed by the trusted release key (manifest.json.sig does not verify)" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch {
    return { ok: false, check: "manifest", message: "manifest.json is signed but is not valid JSON" };
  }
  if (!isManifest(parsed)) return { ok: false, check: "manifest", message: "manifest.json is signed but does not have the release manifest's fields (version, channel, date, platforms with file, size, sha256)" };
  return { ok: true, manifest: parsed };
}

/** Whether `a` is a newer version than `b` (numeric major.minor.patch; a pre-release sorts before its release). */
export function isNewer(a: string, b: string): boolean {
  const parse = (version: string) => {
    const [core = "", pre] = version.split("-", 2);
    return { parts: core.split(".").map((part) => Number.parseInt(part, 10) || 0), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let i = 0; i < Math.max(left.parts.length, right.parts.length); i++) {
    const difference = (left.parts[i] ?? 0) - (right.parts[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  if (left.pre === right.pre) return false;
  if (left.pre === undefined) return true;
  if (right.pre === undefined) return false;
  return left.pre > right.pre;
}
