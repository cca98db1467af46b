/**
 * The checks on a binary after the manifest's signature: its sha256 against the signed manifest
 * and a `--version` smoke test (install.sh and src/update/staged-checks.ts do the same).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

export const SMOKE_TEST_TIMEOUT_MS = 10_000;

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export type VersionCheck = { ok: true; version: string; printed: string } | { ok: false; problem: string };

/** Runs `<path> --version`; the version is the first word it prints (`1.2.3 (clew)`). */
export function reportedVersion(path: string): Promise<VersionCheck> {
  return new Promise((resolveCheck) => {
    let stdout = "";
    let stderr = "";
    let child;
    try {
      child = spawn(path, ["--version"], { stdio: ["ignore", "pipe", "pipe"], timeout: SMOKE_TEST_TIMEOUT_MS, killSignal: "SIGKILL" });
    } catch (error) {
      resolveCheck({ ok: false, problem: `it could not be started (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", (error) => resolveCheck({ ok: false, problem: `it could not be started (${error.message})` }));
    child.on("close", (code, signal) => {
      const printed = stdout.trim();
      if (signal === "SIGKILL") return resolveCheck({ ok: false, problem: `it did not print its version within ${SMOKE_TEST_TIMEOUT_MS / 1000} s` });
      if (code !== 0) return resolveCheck({ ok: false, problem: `it exited with ${signal ?? `code ${code}`}${stderr.trim() ? `: ${stderr.trim().split("\n")[0]}` : ""}` });
      const version = printed.split(/\s+/)[0] ?? "";
      if (version === "") return resolveCheck({ ok: false, problem: "it printed no version" });
      resolveCheck({ ok: true, version, printed });
    });
  });
}
