/**
 * Facts baked into the binary at build time (scripts/release.ts passes them to Bun's `define`):
 * the release version and the public key updates must be signed with. A local `bun run build`
 * defines neither: the version falls back to package.json and self-update has no key to trust
 * (it refuses to update, and says why).
 */
declare const CLEW_BUILD_VERSION: string | undefined;
declare const CLEW_RELEASE_PUBLIC_KEY: string | undefined;

export function buildVersion(fallback: string): string {
  return typeof CLEW_BUILD_VERSION === "string" && CLEW_BUILD_VERSION !== "" ? CLEW_BUILD_VERSION : fallback;
}

/** The Ed25519 public key (PEM) release manifests must verify against; undefined in local builds. */
export function trustedReleaseKey(): string | undefined {
  return typeof CLEW_RELEASE_PUBLIC_KEY === "string" && CLEW_RELEASE_PUBLIC_KEY !== "" ? CLEW_RELEASE_PUBLIC_KEY : undefined;
}
