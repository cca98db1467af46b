/**
 * Which release file fits this machine: OS and CPU from the runtime, musl from the loader's file
 * (or `ldd`), and on x64 Linux the AVX2 flag, because the default x64 build needs it and a CPU
 * without it gets the baseline build (the anchors ship one build and crash with SIGILL there).
 */
import { existsSync, readFileSync } from "node:fs";
import type { Platform } from "./manifest.ts";

export interface MachineFacts {
  os: NodeJS.Platform;
  arch: string;
  musl: boolean;
  /** undefined when the CPU flags cannot be read (then the default build is assumed). */
  avx2: boolean | undefined;
}

function detectMusl(): boolean {
  if (existsSync("/lib/libc.musl-x86_64.so.1") || existsSync("/lib/libc.musl-aarch64.so.1")) return true;
  try {
    const ldd = Bun.spawnSync(["ldd", "--version"], { stdout: "pipe", stderr: "pipe" });
    return /musl/i.test(`${ldd.stdout.toString()}${ldd.stderr.toString()}`);
  } catch {
    return false;
  }
}

function detectAvx2(): boolean | undefined {
  try {
    const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
    const flags = cpuinfo.split("\n").find((line) => line.startsWith("flags"));
    return flags === undefined ? undefined : /\savx2(\s|$)/.test(flags);
  } catch {
    return undefined;
  }
}

export function machineFacts(): MachineFacts {
  const linux = process.platform === "linux";
  return {
    os: process.platform,
    arch: process.arch,
    musl: linux && detectMusl(),
    avx2: linux && process.arch === "x64" ? detectAvx2() : undefined,
  };
}

/** The release platform for these facts, or undefined when clew publishes no build for them. */
export function platformFor(facts: MachineFacts): Platform | undefined {
  if (facts.os === "darwin") return facts.arch === "arm64" ? "darwin-arm64" : facts.arch === "x64" ? "darwin-x64" : undefined;
  if (facts.os === "win32") return facts.arch === "x64" ? "windows-x64" : undefined;
  if (facts.os !== "linux") return undefined;
  if (facts.arch === "arm64") return facts.musl ? undefined : "linux-arm64";
  if (facts.arch !== "x64") return undefined;
  if (facts.musl) return "linux-x64-musl";
  return facts.avx2 === false ? "linux-x64-baseline" : "linux-x64";
}
