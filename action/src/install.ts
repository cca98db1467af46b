/**
 * Getting a clew binary onto the runner. A download is verified as install.sh and `clew update`
 * verify one, in order: the manifest's Ed25519 signature with the trusted key, a build for this
 * platform, the file's size, its sha256, then its `--version`. Only a binary that passed every
 * check is moved into the tool cache (`<tool cache>/clew/<version>/<platform>/`, marked complete
 * as @actions/tool-cache does), and a cached one is checked against the signed manifest again
 * before it is used, so a shared runner's cache cannot hand over another binary.
 */
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync, chmodSync, readFileSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { releaseFileName, verifyManifest, type Platform, type PlatformFile } from "../../src/update/manifest.ts";
import { downloadReleaseFile, locationOf, readReleaseFile, releaseFolder } from "./release-files.ts";
import { reportedVersion, sha256Of } from "./verify.ts";

export class InstallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InstallError";
  }
}

export interface InstalledClew {
  path: string;
  version: string;
  /** How it was found: the clew-path input, the tool cache, or a fresh download. */
  source: "clew-path" | "tool-cache" | "download";
}

export interface InstallOptions {
  downloadUrl: string;
  trustedKeyPem: string;
  platform: Platform;
  /** RUNNER_TOOL_CACHE (or a temp folder off GitHub). */
  toolCache: string;
  log: (line: string) => void;
}

/** The trusted key: PEM text as given, a file holding it, or the project's built-in key. */
export function trustedKeyPem(input: string | undefined, builtIn: string, base: string): string {
  if (input === undefined) {
    if (builtIn === "") throw new InstallError("this action has no release key built in yet: set trusted-key to the release's public key (PEM text, or a file holding it), or clew-path to use a clew already on the runner");
    return builtIn;
  }
  if (input.includes("-----BEGIN")) return input;
  const path = isAbsolute(input) ? input : join(base, input);
  if (!existsSync(path)) throw new InstallError(`input trusted-key: ${path} does not exist; give the release's public key as PEM text or as a file`);
  return readFileSync(path, "utf8");
}

/** A version as a path segment of the tool cache (the manifest is signed, but a path is a path). */
function safeSegment(version: string): string {
  if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version)) throw new InstallError(`manifest check failed: version ${JSON.stringify(version)} is not a plain version string`);
  return version;
}

async function checkBinary(path: string, entry: PlatformFile, version: string): Promise<string | undefined> {
  const size = statSync(path).size;
  if (size !== entry.size) return `size check failed: ${entry.file} is ${size} bytes, the signed manifest says ${entry.size} (truncated or altered download)`;
  const digest = await sha256Of(path);
  if (digest !== entry.sha256) return `sha256 check failed: ${entry.file} has sha256 ${digest}, the signed manifest says ${entry.sha256}`;
  chmodSync(path, 0o755);
  const printed = await reportedVersion(path);
  if (!printed.ok) return `smoke test failed: ${entry.file} --version: ${printed.problem}`;
  if (printed.version !== version) return `smoke test failed: ${entry.file} --version printed '${printed.printed}', not ${version}`;
  return undefined;
}

/** Downloads (or takes from the tool cache) the verified release binary for the platform. */
export async function installRelease(options: InstallOptions): Promise<InstalledClew> {
  const base = releaseFolder(options.downloadUrl);
  options.log(`Installing clew for ${options.platform} from ${base}`);
  const manifestBytes = await readReleaseFile(base, "manifest.json");
  const signature = await readReleaseFile(base, "manifest.json.sig");
  const check = await verifyManifest(new Uint8Array(manifestBytes), signature.toString("utf8"), options.trustedKeyPem);
  if (!check.ok) throw new InstallError(`${check.check} check failed: ${check.message} (${locationOf(base, "manifest.json")}; the key is the trusted-key input's)`);
  const { manifest } = check;
  options.log(`Verified manifest.json of clew ${manifest.version}, signed by the trusted key`);
  const entry = manifest.platforms[options.platform];
  if (entry === undefined) throw new InstallError(`platform check failed: release ${manifest.version} has no build for ${options.platform}`);
  if (entry.file !== releaseFileName(options.platform)) throw new InstallError(`manifest check failed: the ${options.platform} entry names ${JSON.stringify(entry.file)}, not ${releaseFileName(options.platform)}`);

  const folder = join(options.toolCache, "clew", safeSegment(manifest.version), options.platform);
  const binary = join(folder, options.platform.startsWith("windows") ? "clew.exe" : "clew");
  const marker = `${folder}.complete`;
  if (existsSync(marker) && existsSync(binary)) {
    const problem = await checkBinary(binary, entry, manifest.version);
    if (problem === undefined) {
      options.log(`Using clew ${manifest.version} from the tool cache (${binary}); size, sha256 and --version checked`);
      return { path: binary, version: manifest.version, source: "tool-cache" };
    }
    options.log(`The cached ${binary} fails a check (${problem}); downloading it again`);
    rmSync(marker, { force: true });
  }

  mkdirSync(join(options.toolCache, "clew"), { recursive: true });
  // Staged outside the version folder: a failed check leaves nothing a later run could mistake for an install.
  const staging = mkdtempSync(join(options.toolCache, "clew", ".download-"));
  try {
    const staged = join(staging, "clew");
    options.log(`Downloading ${entry.file} (${entry.size} bytes)`);
    await downloadReleaseFile(base, entry.file, staged, entry.size);
    const problem = await checkBinary(staged, entry, manifest.version);
    if (problem !== undefined) throw new InstallError(`${problem}; nothing was installed`);
    options.log(`Verified ${entry.file}: size, sha256, and --version prints ${manifest.version}`);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    renameSync(staged, binary);
    writeFileSync(marker, "");
    return { path: binary, version: manifest.version, source: "download" };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function onPath(name: string, pathList: string): string | undefined {
  for (const folder of pathList.split(delimiter)) {
    if (folder === "") continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The clew-path input: an executable that answers `--version`; nothing is downloaded. */
export async function existingClew(clewPath: string, pathList: string): Promise<InstalledClew> {
  const path = isAbsolute(clewPath) ? clewPath : onPath(clewPath, pathList);
  if (path === undefined) throw new InstallError(`input clew-path: no ${clewPath} on PATH; give the binary's path`);
  if (!existsSync(path)) throw new InstallError(`input clew-path: ${path} does not exist`);
  const printed = await reportedVersion(path);
  if (!printed.ok) throw new InstallError(`input clew-path: ${path} --version: ${printed.problem}`);
  return { path, version: printed.version, source: "clew-path" };
}
