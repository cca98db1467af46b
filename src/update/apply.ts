/**
 * One update, in the order that keeps the installed binary safe: the manifest's signature with
 * the trusted key, the platform, the version, then the downloaded file's size, sha256, header and
 * `--version`, and only then the swap. Every failure removes the staged file, leaves the installed
 * binary as it was and names the check that failed.
 */
import { chmodSync, rmSync } from "node:fs";
import { isNewer, type Platform, type ReleaseManifest, verifyManifest } from "./manifest.ts";
import { describeLocation, downloadReleaseFile, readReleaseFile, releaseFolder, SourceError } from "./source.ts";
import { headerMismatch, sha256Of, smokeTest } from "./staged-checks.ts";
import { acquireLock } from "./state.ts";
import { writePendingStart, clearPendingStart } from "./rollback.ts";
import { previousPathOf, siblingTemp, swapInto } from "./swap.ts";

export type UpdateCheck = "key" | "source" | "signature" | "manifest" | "platform" | "version" | "size" | "sha256" | "smoke-test" | "swap";

export type UpdateOutcome =
  | { kind: "updated"; from: string; to: string; binaryPath: string; previousPath: string }
  | { kind: "up-to-date"; version: string; latest: string }
  | { kind: "already-installed"; version: string }
  | { kind: "available"; version: string }
  | { kind: "rejected"; check: UpdateCheck; message: string }
  | { kind: "busy"; holder: number | undefined }
  | { kind: "pinned"; version: string; by: string }
  | { kind: "declined"; version: string };

export interface UpdateRequest {
  /** The channel's release folder (CLEW_UPDATE_URL or the default host). */
  base: string;
  channel: "latest" | "stable";
  /** `clew update V`: this version exactly (an older one only after `confirm`). */
  version?: string;
  yes: boolean;
  binaryPath: string;
  runningVersion: string;
  platform: Platform | undefined;
  trustedKey: { pem: string | undefined; label: string; problem?: string };
  stateDir: string;
  pin?: { version: string; by: string };
  /** Versions a background check must not install again (rolled back as bad). */
  skipVersions?: readonly string[];
  /** Stop after the manifest: report `available` instead of installing. */
  checkOnly?: boolean;
  confirm: (question: string) => Promise<boolean>;
  progress: (line: string) => void;
}

class Rejected extends Error {
  constructor(
    readonly check: UpdateCheck,
    message: string,
  ) {
    super(message);
  }
}

async function fetchVerifiedManifest(folder: string, request: UpdateRequest, pem: string): Promise<ReleaseManifest> {
  let bytes: Uint8Array;
  let signature: Uint8Array;
  try {
    bytes = await readReleaseFile(folder, "manifest.json");
    signature = await readReleaseFile(folder, "manifest.json.sig");
  } catch (error) {
    if (error instanceof SourceError) throw new Rejected("source", error.message);
    throw error;
  }
  const checked = await verifyManifest(bytes, new TextDecoder().decode(signature), pem);
  if (!checked.ok) throw new Rejected(checked.check, `${describeLocation(folder, "manifest.json")}: ${checked.message} (trusted key: ${request.trustedKey.label})`);
  return checked.manifest;
}

/** The release to consider: the channel's, or for an explicit version its own folder (else the channel's, if it is that version). */
async function targetManifest(request: UpdateRequest, pem: string, wanted: string | undefined): Promise<{ manifest: ReleaseManifest; folder: string }> {
  const channelFolder = releaseFolder(request.base, { channel: request.channel });
  if (wanted === undefined) return { manifest: await fetchVerifiedManifest(channelFolder, request, pem), folder: channelFolder };
  const versionFolder = releaseFolder(request.base, { version: wanted });
  try {
    return { manifest: await fetchVerifiedManifest(versionFolder, request, pem), folder: versionFolder };
  } catch (error) {
    if (!(error instanceof Rejected) || error.check !== "source" || versionFolder === channelFolder) throw error;
    const manifest = await fetchVerifiedManifest(channelFolder, request, pem);
    if (manifest.version !== wanted) throw new Rejected("version", `version ${wanted} is not published: ${error.message}, and ${channelFolder} holds ${manifest.version}`);
    return { manifest, folder: channelFolder };
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

async function stageAndCheck(request: UpdateRequest, folder: string, manifest: ReleaseManifest, platform: Platform, staged: string): Promise<void> {
  const entry = manifest.platforms[platform];
  if (entry === undefined) throw new Rejected("platform", `release ${manifest.version} has no build for ${platform}`);
  request.progress(`Downloading ${entry.file} (${megabytes(entry.size)})…`);
  let reported = 0;
  let size: number;
  try {
    size = await downloadReleaseFile(folder, entry.file, staged, entry.size, (bytes) => {
      const quarter = Math.floor((bytes / Math.max(entry.size, 1)) * 4);
      if (quarter > reported && quarter < 4) {
        reported = quarter;
        request.progress(`  ${quarter * 25}% (${megabytes(bytes)})`);
      }
    });
  } catch (error) {
    if (error instanceof SourceError) throw new Rejected("source", error.message);
    throw error;
  }
  if (size !== entry.size) {
    const how = size < entry.size ? "the download is truncated" : "the file is larger than the manifest says";
    throw new Rejected("size", `${entry.file}: ${how} (${size > entry.size ? "more than " : ""}${size} bytes; the signed manifest says ${entry.size})`);
  }
  const digest = await sha256Of(staged);
  if (digest !== entry.sha256) throw new Rejected("sha256", `${entry.file}: sha256 ${digest} does not match the signed manifest's ${entry.sha256} (the file was altered or corrupted)`);
  const mismatch = await headerMismatch(staged, platform);
  if (mismatch !== undefined) throw new Rejected("platform", `${entry.file} is listed for ${platform} but is ${mismatch}`);
  request.progress(`Verified ${entry.file}: size, sha256 and ${platform} executable`);
  chmodSync(staged, 0o755);
  const failed = await smokeTest(staged, manifest.version);
  if (failed !== undefined) throw new Rejected("smoke-test", `the new binary's --version smoke test failed: ${failed}`);
  request.progress(`Smoke test passed: clew --version printed ${manifest.version}`);
}

async function decideVersion(request: UpdateRequest, manifest: ReleaseManifest, explicit: boolean): Promise<UpdateOutcome | undefined> {
  const running = request.runningVersion;
  if (manifest.version === running) return { kind: "up-to-date", version: running, latest: manifest.version };
  if (isNewer(manifest.version, running)) {
    if (!explicit && request.skipVersions?.includes(manifest.version)) return { kind: "up-to-date", version: running, latest: manifest.version };
    return undefined;
  }
  if (!explicit) return { kind: "up-to-date", version: running, latest: manifest.version };
  if (request.yes) return undefined;
  const agreed = await request.confirm(`clew ${manifest.version} is older than the running ${running}. Install it anyway?`);
  return agreed ? undefined : { kind: "declined", version: manifest.version };
}

async function installedAlready(binaryPath: string, sha256: string): Promise<boolean> {
  try {
    return (await sha256Of(binaryPath)) === sha256;
  } catch {
    return false;
  }
}

async function updateLocked(request: UpdateRequest, pem: string, wanted: string | undefined): Promise<UpdateOutcome> {
  request.progress(`Checking ${releaseFolder(request.base, wanted === undefined ? { channel: request.channel } : { version: wanted })} for ${wanted === undefined ? "updates" : `version ${wanted}`}…`);
  const { manifest, folder } = await targetManifest(request, pem, wanted);
  request.progress(`Verified manifest.json: clew ${manifest.version} (${manifest.channel}), signed by ${request.trustedKey.label}`);
  const platform = request.platform;
  if (platform === undefined) throw new Rejected("platform", `clew publishes no build for this machine (${process.platform}-${process.arch})`);
  const entry = manifest.platforms[platform];
  if (entry === undefined) throw new Rejected("platform", `release ${manifest.version} has no build for ${platform} (it has ${Object.keys(manifest.platforms).join(", ") || "none"})`);
  const decided = await decideVersion(request, manifest, wanted !== undefined);
  if (decided !== undefined) return decided;
  // Another updater may have finished while this one waited: the installed file is already it.
  if (await installedAlready(request.binaryPath, entry.sha256)) return { kind: "already-installed", version: manifest.version };
  if (request.checkOnly) return { kind: "available", version: manifest.version };
  const staged = siblingTemp(request.binaryPath, "staged");
  try {
    await stageAndCheck(request, folder, manifest, platform, staged);
    writePendingStart(request.stateDir, { version: manifest.version, previousVersion: request.runningVersion, binary: request.binaryPath });
    try {
      swapInto(staged, request.binaryPath);
    } catch (error) {
      clearPendingStart(request.stateDir);
      throw new Rejected("swap", `could not replace ${request.binaryPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  } finally {
    rmSync(staged, { force: true });
  }
  return { kind: "updated", from: request.runningVersion, to: manifest.version, binaryPath: request.binaryPath, previousPath: previousPathOf(request.binaryPath) };
}

export async function runUpdate(request: UpdateRequest): Promise<UpdateOutcome> {
  const pem = request.trustedKey.pem;
  if (pem === undefined) {
    return { kind: "rejected", check: "key", message: request.trustedKey.problem ?? "this clew has no embedded release key (a local build): it cannot verify updates; set CLEW_TRUSTED_KEY to a PEM public key file to trust a mirror's key" };
  }
  let wanted = request.version;
  if (request.pin !== undefined) {
    if (request.pin.version === request.runningVersion || (wanted !== undefined && wanted !== request.pin.version)) return { kind: "pinned", version: request.pin.version, by: request.pin.by };
    wanted = request.pin.version;
  }
  const lock = acquireLock(request.stateDir);
  if (!lock.acquired) return { kind: "busy", holder: lock.holder };
  try {
    return await updateLocked(request, pem, wanted);
  } catch (error) {
    if (error instanceof Rejected) return { kind: "rejected", check: error.check, message: error.message };
    throw error;
  } finally {
    lock.release();
  }
}
