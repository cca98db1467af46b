/**
 * The release build for the runner, by the rules of src/update/platform.ts and install.sh: OS and
 * CPU from node, musl from the loader's file or `ldd`, and on x64 Linux the AVX2 flag (the default
 * x64 build needs it; older CPUs get the baseline build). Written for node, which runs the action.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { Platform } from "../../src/update/manifest.ts";

function isMusl(): boolean {
  if (existsSync("/lib/libc.musl-x86_64.so.1") || existsSync("/lib/libc.musl-aarch64.so.1")) return true;
  const ldd = spawnSync("ldd", ["--version"], { encoding: "utf8" });
  return /musl/i.test(`${ldd.stdout ?? ""}${ldd.stderr ?? ""}`);
}

function hasAvx2(): boolean | undefined {
  try {
    const flags = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((line) => line.startsWith("flags"));
    return flags === undefined ? undefined : /\savx2(\s|$)/.test(flags);
  } catch {
    return undefined;
  }
}

/** The platform key of the release file for this runner, or an explanation of why there is none. */
export function runnerPlatform(): { platform: Platform } | { problem: string } {
  const { platform: os, arch } = process;
  if (os === "darwin" && (arch === "arm64" || arch === "x64")) return { platform: arch === "arm64" ? "darwin-arm64" : "darwin-x64" };
  if (os === "win32" && arch === "x64") return { platform: "windows-x64" };
  if (os === "linux" && arch === "arm64") return isMusl() ? { problem: "clew has no build for musl on arm64" } : { platform: "linux-arm64" };
  if (os === "linux" && arch === "x64") {
    if (isMusl()) return { platform: "linux-x64-musl" };
    return { platform: hasAvx2() === false ? "linux-x64-baseline" : "linux-x64" };
  }
  return { problem: `clew has no build for ${os} on ${arch}` };
}
