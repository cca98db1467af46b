// `bun scripts/release.ts --version V --out DIR --signing-key KEY.pem [--channel latest|stable]
// [--platforms a,b,…] [--trusted-key PUB.pem] [--runtime-cache DIR]`: cross-compiles clew for
// each platform and writes, into DIR, `clew-<platform>` (`.exe` on Windows), `manifest.json` and
// `manifest.json.sig` (distribution-mcp.md §1.2, clew's form; src/update/manifest.ts reads them).
//
// The Bun runtime each binary is built on comes from the npm registry (`@oven/bun-<os>-<arch>`,
// the running Bun's version), fetched with `npm pack` into a cache: `bun build --compile
// --target` would otherwise download it from GitHub, which release machines may not reach.
import { createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PLATFORMS, releaseFileName, verifyManifest, type Platform, type PlatformFile, type ReleaseManifest } from "../src/update/manifest.ts";
import { CLEW_BUILD_OPTIONS, CLEW_COMPILE_OPTIONS } from "./build-options.ts";
import { BytecodeOrderError, canRecordBytecodeOrder, recordBytecodeOrder } from "./bytecode-order.ts";

/** The acceptance limit for every release binary (issue #12). */
export const SIZE_LIMIT_BYTES = 120_000_000;

interface Target {
  bunTarget: Bun.Build.CompileTarget;
  /** The npm package holding this platform's Bun runtime. */
  runtimePackage: string;
  /**
   * How deep bytecode goes (undefined: every function; "none": no bytecode, start-up to the
   * first request ~2.4× slower). The runtimes differ by up to 27 MB and
   * the bytecode of clew's code is ~8.6 MB, so each platform gets the most start-up speed its
   * runtime leaves room for under SIZE_LIMIT_BYTES (sizes: README, "Releasing").
   */
  bytecodeDepth: number | undefined | "none";
}

const TARGETS: Record<Platform, Target> = {
  // 107 MB runtimes: depth 2 keeps ~2.6 MB of headroom and almost all of the start-up gain.
  "linux-x64": { bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64", bytecodeDepth: 2 },
  "linux-x64-baseline": { bunTarget: "bun-linux-x64-baseline", runtimePackage: "@oven/bun-linux-x64-baseline", bytecodeDepth: 2 },
  "linux-arm64": { bunTarget: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64", bytecodeDepth: 2 },
  "linux-x64-musl": { bunTarget: "bun-linux-x64-musl", runtimePackage: "@oven/bun-linux-x64-musl", bytecodeDepth: undefined },
  "darwin-x64": { bunTarget: "bun-darwin-x64", runtimePackage: "@oven/bun-darwin-x64", bytecodeDepth: undefined },
  "darwin-arm64": { bunTarget: "bun-darwin-arm64", runtimePackage: "@oven/bun-darwin-aarch64", bytecodeDepth: undefined },
  // The Windows runtime alone is 115.4 MB: even top-level bytecode went over the limit (by 0.16 MB)
  // once the bundle grew, so Windows starts from source (measured elsewhere: ~+18 ms to the first request).
  "windows-x64": { bunTarget: "bun-windows-x64", runtimePackage: "@oven/bun-windows-x64", bytecodeDepth: "none" },
};

class ReleaseError extends Error {}

interface ReleaseOptions {
  version: string;
  channel: "latest" | "stable";
  out: string;
  signingKey: KeyObject;
  trustedKeyPem: string;
  platforms: Platform[];
  runtimeCache: string;
}

const USAGE =
  "usage: bun scripts/release.ts --version V --out DIR --signing-key KEY.pem [--channel latest|stable] [--platforms a,b,…] [--trusted-key PUB.pem] [--runtime-cache DIR]";

function readPem(path: string, flag: string): string {
  if (!existsSync(path)) throw new ReleaseError(`${flag} ${path}: no such file; name an Ed25519 key in PEM form`);
  return readFileSync(path, "utf8");
}

function ed25519(key: KeyObject, path: string, flag: string): KeyObject {
  if (key.asymmetricKeyType !== "ed25519") {
    throw new ReleaseError(`${flag} ${path}: this is a ${key.asymmetricKeyType ?? "symmetric"} key; releases are signed with Ed25519 (openssl genpkey -algorithm ed25519 -out KEY.pem)`);
  }
  return key;
}

function loadSigningKey(path: string): KeyObject {
  const pem = readPem(path, "--signing-key");
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new ReleaseError(`--signing-key ${path}: not a private key in PEM form (${(error as Error).message}); create one with openssl genpkey -algorithm ed25519 -out KEY.pem`);
  }
  return ed25519(key, path, "--signing-key");
}

function loadTrustedKey(path: string): string {
  const pem = readPem(path, "--trusted-key");
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new ReleaseError(`--trusted-key ${path}: not a public key in PEM form (${(error as Error).message}); write one with openssl pkey -in KEY.pem -pubout -out PUB.pem`);
  }
  return publicPem(ed25519(key, path, "--trusted-key"));
}

function publicPem(key: KeyObject): string {
  const publicKey = key.type === "public" ? key : createPublicKey(key);
  return publicKey.export({ type: "spki", format: "pem" }).toString();
}

function parsePlatforms(list: string | undefined): Platform[] {
  if (list === undefined) return [...PLATFORMS];
  const names = list.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const unknown = names.filter((name) => !(PLATFORMS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new ReleaseError(`--platforms: unknown platform ${unknown.join(", ")}; choose from ${PLATFORMS.join(", ")}`);
  if (names.length === 0) throw new ReleaseError(`--platforms is empty; name one or more of ${PLATFORMS.join(", ")}`);
  return [...new Set(names)] as Platform[];
}

function defaultRuntimeCache(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "clew-release");
}

function parseOptions(argv: string[]): ReleaseOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        version: { type: "string" },
        channel: { type: "string" },
        out: { type: "string" },
        "signing-key": { type: "string" },
        "trusted-key": { type: "string" },
        platforms: { type: "string" },
        "runtime-cache": { type: "string" },
      },
    }));
  } catch (error) {
    throw new ReleaseError(`${(error as Error).message}\n${USAGE}`);
  }
  const { version, out } = values;
  const signingKeyPath = values["signing-key"];
  if (version === undefined) throw new ReleaseError(`--version is required (the version the binaries report, e.g. 1.2.3)\n${USAGE}`);
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) throw new ReleaseError(`--version ${version}: expected major.minor.patch with an optional -pre-release, e.g. 1.2.3 or 1.3.0-rc.1`);
  if (out === undefined) throw new ReleaseError(`--out is required (the folder the binaries, manifest.json and manifest.json.sig are written to)\n${USAGE}`);
  if (signingKeyPath === undefined) throw new ReleaseError(`--signing-key is required (an Ed25519 private key, PKCS#8 PEM: openssl genpkey -algorithm ed25519 -out KEY.pem)\n${USAGE}`);
  const channel = values.channel ?? "latest";
  if (channel !== "latest" && channel !== "stable") throw new ReleaseError(`--channel ${channel}: expected latest or stable`);
  const signingKey = loadSigningKey(signingKeyPath);
  const trustedKeyPath = values["trusted-key"];
  return {
    version,
    channel,
    out: resolve(out),
    signingKey,
    trustedKeyPem: trustedKeyPath === undefined ? publicPem(signingKey) : loadTrustedKey(trustedKeyPath),
    platforms: parsePlatforms(values.platforms),
    runtimeCache: resolve(values["runtime-cache"] ?? defaultRuntimeCache()),
  };
}

/** The Bun runtime for `target`, from the cache or fetched once with `npm pack` (npm checks the registry's integrity hash). */
async function runtimeFor(platform: Platform, target: Target, cache: string): Promise<string> {
  const folder = join(cache, `bun-${Bun.version}`, target.runtimePackage.replace("/", "+"));
  const executable = join(folder, "package", "bin", platform.startsWith("windows") ? "bun.exe" : "bun");
  if (existsSync(executable)) return executable;
  mkdirSync(join(cache, `bun-${Bun.version}`), { recursive: true });
  const staging = mkdtempSync(`${folder}.partial-`);
  try {
    const spec = `${target.runtimePackage}@${Bun.version}`;
    console.log(`fetching the Bun ${Bun.version} runtime for ${platform} (${spec}) from the npm registry`);
    const pack = Bun.spawnSync(["npm", "pack", spec, "--pack-destination", staging, "--silent"], { stdout: "pipe", stderr: "pipe" });
    const tarball = pack.stdout.toString().trim().split("\n").pop() ?? "";
    if (pack.exitCode !== 0 || tarball === "") {
      throw new ReleaseError(`npm pack ${spec} failed (${pack.stderr.toString().trim() || `exit ${pack.exitCode}`}); check that npm can reach its registry, or fill --runtime-cache ${cache} by hand`);
    }
    const untar = Bun.spawnSync(["tar", "-xzf", join(staging, tarball), "-C", staging], { stdout: "pipe", stderr: "pipe" });
    if (untar.exitCode !== 0) throw new ReleaseError(`${join(staging, tarball)}: could not unpack (${untar.stderr.toString().trim()}); delete it and run again`);
    if (!existsSync(join(staging, "package", "bin", platform.startsWith("windows") ? "bun.exe" : "bun"))) {
      throw new ReleaseError(`${spec} holds no package/bin/bun${platform.startsWith("windows") ? ".exe" : ""}; the package layout changed, so release.ts needs updating`);
    }
    rmSync(join(staging, tarball));
    rmSync(folder, { recursive: true, force: true });
    renameSync(staging, folder);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return executable;
}

function releaseDefines(options: ReleaseOptions): Record<string, string> {
  return { CLEW_BUILD_VERSION: JSON.stringify(options.version), CLEW_RELEASE_PUBLIC_KEY: JSON.stringify(options.trustedKeyPem) };
}

/**
 * The bytecode order every target is built with (scripts/bytecode-order.ts), recorded once by a
 * binary for this machine with every function in bytecode, so the targets that keep them all
 * find each one in the profile.
 */
async function recordOrder(options: ReleaseOptions, folder: string): Promise<{ files: string[]; dispose: () => void }> {
  if (!canRecordBytecodeOrder()) throw new ReleaseError("the bytecode order is recorded with the tests' fake API (test/fake-anthropic, test/scenarios): release from a full checkout");
  const outfile = join(folder, "clew-profile");
  const result = await Bun.build({ ...CLEW_BUILD_OPTIONS, define: releaseDefines(options), compile: { ...CLEW_COMPILE_OPTIONS, outfile } });
  if (!result.success) throw new ReleaseError(`building the binary that records the bytecode order failed:\n${result.logs.map((log) => String(log)).join("\n")}`);
  try {
    return await recordBytecodeOrder(outfile);
  } catch (error) {
    if (error instanceof BytecodeOrderError) throw new ReleaseError(error.message);
    throw error;
  }
}

async function compile(platform: Platform, options: ReleaseOptions, bytecodeOrder: string[]): Promise<string> {
  const target = TARGETS[platform];
  const executablePath = await runtimeFor(platform, target, options.runtimeCache);
  const outfile = join(options.out, releaseFileName(platform));
  rmSync(outfile, { force: true });
  const result = await Bun.build({
    ...CLEW_BUILD_OPTIONS,
    ...(target.bytecodeDepth === "none" ? { bytecode: false } : { bytecodeDepth: target.bytecodeDepth }),
    define: releaseDefines(options),
    compile: { ...CLEW_COMPILE_OPTIONS, target: target.bunTarget, executablePath, outfile, ...(target.bytecodeDepth === "none" ? {} : { bytecodeOrder }) },
  });
  if (!result.success) {
    const logs = result.logs.map((log) => String(log)).join("\n");
    throw new ReleaseError(`building ${platform} failed:\n${logs}`);
  }
  if (!existsSync(outfile)) throw new ReleaseError(`building ${platform} reported success but wrote no ${outfile}`);
  return outfile;
}

function hostPlatforms(): Platform[] {
  if (process.platform === "linux" && process.arch === "x64") {
    if (existsSync("/lib/ld-musl-x86_64.so.1")) return ["linux-x64-musl"];
    const avx2 = existsSync("/proc/cpuinfo") && /\bavx2\b/.test(readFileSync("/proc/cpuinfo", "utf8"));
    return avx2 ? ["linux-x64", "linux-x64-baseline"] : ["linux-x64-baseline"];
  }
  if (process.platform === "linux" && process.arch === "arm64") return ["linux-arm64"];
  if (process.platform === "darwin") return [process.arch === "arm64" ? "darwin-arm64" : "darwin-x64"];
  if (process.platform === "win32") return ["windows-x64"];
  return [];
}

/** Binaries this machine can run must print the release version: a broken build never gets signed. */
function smokeTest(platform: Platform, file: string, version: string): void {
  if (!hostPlatforms().includes(platform)) return;
  const run = Bun.spawnSync([file, "--version"], { stdout: "pipe", stderr: "pipe", timeout: 10_000 });
  const printed = run.stdout.toString().trim();
  if (run.exitCode !== 0 || !printed.includes(version)) {
    throw new ReleaseError(`${file} --version printed ${JSON.stringify(printed)} (exit ${run.exitCode}), not ${version}: the binary is broken; nothing was signed`);
  }
}

async function sha256(file: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(file).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

/** Compiles, checks and hashes one platform's binary into `platforms`. */
async function addPlatform(platform: Platform, options: ReleaseOptions, bytecodeOrder: string[], platforms: ReleaseManifest["platforms"]): Promise<void> {
  const file = await compile(platform, options, bytecodeOrder);
  const size = statSync(file).size;
  console.log(`${platform}: ${releaseFileName(platform)} ${size.toLocaleString("en-US")} bytes`);
  if (size > SIZE_LIMIT_BYTES) {
    throw new ReleaseError(
      `${file} is ${size.toLocaleString("en-US")} bytes, over the ${SIZE_LIMIT_BYTES.toLocaleString("en-US")}-byte limit: lower bytecodeDepth for ${platform} in scripts/release.ts (below 0 is "none") or trim the bundle (README, "Releasing", says what it holds)`,
    );
  }
  smokeTest(platform, file, options.version);
  const entry: PlatformFile = { file: releaseFileName(platform), size, sha256: await sha256(file) };
  platforms[platform] = entry;
}

export async function release(options: ReleaseOptions): Promise<ReleaseManifest> {
  mkdirSync(options.out, { recursive: true });
  const platforms: ReleaseManifest["platforms"] = {};
  const scratch = mkdtempSync(join(tmpdir(), "clew-release-"));
  let order: { files: string[]; dispose: () => void } | undefined;
  try {
    order = await recordOrder(options, scratch);
    for (const platform of options.platforms) await addPlatform(platform, options, order.files, platforms);
  } finally {
    order?.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
  const manifest: ReleaseManifest = { version: options.version, channel: options.channel, date: new Date().toISOString(), platforms };
  const bytes = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
  const signature = sign(null, bytes, options.signingKey).toString("base64");
  // Sign-then-check: a key pair mismatch here would only surface on users' machines.
  const check = await verifyManifest(bytes, signature, publicPem(options.signingKey));
  if (!check.ok) throw new ReleaseError(`the manifest does not verify with the signing key's own public half (${check.message})`);
  writeFileSync(join(options.out, "manifest.json"), bytes);
  writeFileSync(join(options.out, "manifest.json.sig"), `${signature}\n`);
  writeInstallers(options.out, options.trustedKeyPem);
  return manifest;
}

/**
 * The install scripts, published beside the release with its public key filled in, so
 * `curl -fsSL <base>/install.sh | sh` verifies against the key the binaries trust.
 */
function writeInstallers(out: string, publicKeyPem: string): void {
  const pem = publicKeyPem.trim();
  if (!/^[A-Za-z0-9+/=\n -]+$/.test(pem)) throw new ReleaseError("the trusted public key has characters a shell string cannot hold unquoted; give a PEM key");
  const root = join(import.meta.dir, "..");
  const sh = readFileSync(join(root, "scripts/install.sh"), "utf8");
  const ps1 = readFileSync(join(root, "scripts/install.ps1"), "utf8");
  if (!sh.includes("CLEW_RELEASE_PUBLIC_KEY=''") || !ps1.includes("$ReleasePublicKey = ''")) throw new ReleaseError("scripts/install.sh or install.ps1 lost its release key placeholder; restore CLEW_RELEASE_PUBLIC_KEY='' / $ReleasePublicKey = ''");
  writeFileSync(join(out, "install.sh"), sh.replace("CLEW_RELEASE_PUBLIC_KEY=''", `CLEW_RELEASE_PUBLIC_KEY='${pem}'`), { mode: 0o755 });
  writeFileSync(join(out, "install.ps1"), ps1.replace("$ReleasePublicKey = ''", `$ReleasePublicKey = '${pem}'`));
}

if (import.meta.main) {
  try {
    const options = parseOptions(process.argv.slice(2));
    const manifest = await release(options);
    console.log(`released clew ${manifest.version} (${manifest.channel}) for ${Object.keys(manifest.platforms).join(", ")} into ${options.out}`);
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(`release: ${error.message}`);
    process.exit(1);
  }
}
