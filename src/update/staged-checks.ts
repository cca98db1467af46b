/**
 * Checks on a downloaded file before it may replace the installed binary: its size and sha256
 * against the signed manifest, its executable header against the platform it was listed for
 * (a signed manifest can still list the wrong build), and a `--version` smoke test.
 */
import { open } from "node:fs/promises";
import type { Platform } from "./manifest.ts";

export async function sha256Of(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

async function headerOf(path: string): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = new Uint8Array(20);
    const { bytesRead } = await handle.read(buffer, 0, 20, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function describeHeader(header: Uint8Array): string {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length >= 20 && header[0] === 0x7f && header[1] === 0x45 && header[2] === 0x4c && header[3] === 0x46) {
    const machine = view.getUint16(18, true);
    return machine === 0x3e ? "linux-x64" : machine === 0xb7 ? "linux-arm64" : `linux (ELF machine 0x${machine.toString(16)})`;
  }
  if (header.length >= 8 && view.getUint32(0, true) === 0xfeedfacf) {
    const cpu = view.getUint32(4, true);
    return cpu === 0x01000007 ? "darwin-x64" : cpu === 0x0100000c ? "darwin-arm64" : `darwin (CPU type 0x${cpu.toString(16)})`;
  }
  if (header.length >= 2 && header[0] === 0x4d && header[1] === 0x5a) return "windows-x64";
  if (header.length >= 2 && header[0] === 0x23 && header[1] === 0x21) return "a script (#!)";
  return "not an executable";
}

/** undefined when the file's header fits `platform`; otherwise what the file is instead. */
export async function headerMismatch(path: string, platform: Platform): Promise<string | undefined> {
  const found = describeHeader(await headerOf(path));
  const wanted = platform === "linux-x64-baseline" || platform === "linux-x64-musl" ? "linux-x64" : platform;
  return found === wanted ? undefined : found;
}

export const SMOKE_TEST_TIMEOUT_MS = 10_000;

/** Runs `<file> --version`; undefined when it printed `version` in time, else what went wrong. */
export async function smokeTest(path: string, version: string): Promise<string | undefined> {
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn([path, "--version"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: SMOKE_TEST_TIMEOUT_MS, killSignal: "SIGKILL" });
  } catch (error) {
    return `it could not be started: ${error instanceof Error ? error.message : String(error)}`;
  }
  const [code, stdout, stderr] = await Promise.all([
    child.exited,
    new Response(child.stdout as ReadableStream<Uint8Array>).text(),
    new Response(child.stderr as ReadableStream<Uint8Array>).text(),
  ]);
  if (child.signalCode === "SIGKILL") return `it did not print its version within ${SMOKE_TEST_TIMEOUT_MS / 1000} s`;
  if (code !== 0) return `it exited with ${child.signalCode ?? `code ${code}`}${stderr.trim() ? `: ${stderr.trim().split("\n")[0]}` : ""}`;
  const printed = stdout.trim().split(/\s+/)[0] ?? "";
  return printed === version ? undefined : `it printed "${stdout.trim()}", not version ${version}`;
}
