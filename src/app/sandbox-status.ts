/**
 * The sandbox's state for one start directory: the effective boundary from settings and whether
 * the sandbox can start here. Loaded only when the sandbox is enabled, or by `/sandbox` and
 * `clew doctor` — a session with the sandbox off never pays for it.
 */
import { readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { findLinuxTools, probeSandbox } from "../permissions/sandbox/detect.ts";
import { sessionBoundary, type BoundaryDirs } from "../permissions/sandbox/boundary.ts";
import type { Refusal } from "../permissions/sandbox/proxy.ts";
import type { SandboxAvailability, SandboxBoundary, SandboxConfig, SandboxLaunch, SandboxPolicy } from "../permissions/sandbox/types.ts";
import type { SandboxSettings } from "../settings/types.ts";
import { sandboxConfig, type SandboxContext } from "./sandbox-setup.ts";

/** Everything `/sandbox` and `clew doctor` show. */
export interface SandboxStatus {
  config: SandboxConfig;
  /** The session's boundary; `policy` is its policy. */
  boundary: SandboxBoundary;
  policy: SandboxPolicy;
  availability: SandboxAvailability;
  /** One line: on and working, off, or on but unavailable (and what happens instead). */
  summary: string;
}

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The project first, then the additional working directories. */
export function workingDirs(context: SandboxContext): string[] {
  return [context.cwd, ...context.settings.settings.permissions.additionalDirectories.map((dir) => resolve(context.cwd, dir))];
}

/** What boundary.ts reads the directories through: the real file system. */
export function boundaryDirs(context: SandboxContext): BoundaryDirs {
  return { workingDirs: workingDirs(context), homeDir: context.homeDir, realpath, readText };
}

export function sandboxStatus(context: SandboxContext): SandboxStatus {
  const config = sandboxConfig(context.settings, context.cwd, context.configDir);
  const boundary = sessionBoundary(config, boundaryDirs(context));
  const policy = boundary.policy;
  const sandbox = (context.settings.settings.sandbox ?? {}) as SandboxSettings;
  const availability = probeSandbox({
    platform: context.platform ?? process.platform,
    path: context.path,
    ...(sandbox.bwrapPath ? { bwrapPath: sandbox.bwrapPath } : {}),
    isRoot: context.isRoot ?? process.getuid?.() === 0,
  });
  const summary = !config.enabled
    ? `off (set sandbox.enabled to true to run Bash commands in the OS sandbox; ${availability.available ? `${availability.tool} is available` : `it could not start here: ${availability.reason}`})`
    : availability.available
      ? `on: Bash commands run in the OS sandbox (${availability.tool})${config.autoAllowBashIfSandboxed ? " without asking" : ", with the usual approvals"}`
      : `enabled but unavailable: ${availability.reason} (${availability.fix}); Bash commands run unsandboxed and ask for approval as usual`;
  return { config, boundary, policy, availability, summary };
}

export interface Runner {
  readonly refusalSeq: number;
  refusalsAfter(seq: number): Refusal[];
  launch(cwd: string, boundary?: SandboxBoundary): Promise<SandboxLaunch>;
  close(): void;
}

export async function runnerFor(status: SandboxStatus, context: SandboxContext, dirs: readonly string[]): Promise<Runner> {
  const availability = status.availability as Extract<SandboxAvailability, { available: true }>;
  if (availability.platform === "darwin") {
    const { DarwinSandbox } = await import("../permissions/sandbox/darwin.ts");
    return new DarwinSandbox({ policy: status.policy, workingDirs: dirs, sandboxExec: availability.tool, tmpRoot: tmpdir() });
  }
  const { LinuxSandbox } = await import("../permissions/sandbox/runner.ts");
  const tools = findLinuxTools({ platform: "linux", path: context.path, bwrapPath: availability.tool, isRoot: false });
  return new LinuxSandbox({
    policy: status.policy,
    workingDirs: dirs,
    bwrap: availability.tool,
    nsenter: tools?.nsenter,
    bunBinary: process.execPath,
    isRoot: context.isRoot ?? process.getuid?.() === 0,
    tmpRoot: tmpdir(),
    path: context.path,
  });
}

function listed(label: string, items: readonly string[], none = "none"): string {
  return `${label}: ${items.length > 0 ? items.join(", ") : none}`;
}

/** The effective boundary, one fact a line, for `/sandbox` and `clew doctor`. */
export function sandboxLines(status: SandboxStatus): string[] {
  const { config, policy } = status;
  const lines = [
    `Auto-allow sandboxed commands: ${config.autoAllowBashIfSandboxed ? "yes (sandbox.autoAllowBashIfSandboxed)" : "no, they ask as usual"}`,
    `dangerouslyDisableSandbox: ${config.allowUnsandboxedCommands ? "honoured, and the command then asks for approval" : "ignored (sandbox.allowUnsandboxedCommands is false)"}`,
    listed("Excluded commands (run unsandboxed, with approval)", config.excludedCommands),
    listed("Writable", policy.writable),
    `Private /tmp per session; everything else read-only`,
    listed("Read-only even so (denyWrite)", policy.denyWrite),
    listed("Unreadable (denyRead)", policy.denyRead),
    listed("Readable again (allowRead)", policy.allowRead),
    listed("Network, allowed hosts", policy.network.allowedDomains, "none (every connection is refused)"),
    listed("Network, denied hosts", policy.network.deniedDomains),
  ];
  for (const skipped of policy.skipped) {
    const from = skipped.rule ? `the permission rule ${skipped.rule}, for sandbox.${skipped.list}` : `sandbox.${skipped.list} "${skipped.entry}"`;
    lines.push(`Not applied in the sandbox: ${from} (${skipped.why})`);
  }
  return lines;
}

/** The doctor's check (the shape of cli/doctor-checks.ts `Check`): off is no failure, enabled but unable to start is. */
export function sandboxCheck(status: SandboxStatus): { ok: boolean | "n/a"; label: string; detail: string; lines?: string[] } {
  const ok = !status.config.enabled ? ("n/a" as const) : status.availability.available;
  return { ok, label: "Bash sandbox", detail: status.summary, ...(status.config.enabled ? { lines: sandboxLines(status) } : {}) };
}
