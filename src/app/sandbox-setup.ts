/**
 * The OS sandbox for a session (spec §7): reads the merged `sandbox` settings, checks once that
 * the sandbox can start here, tells the permission gate (auto-allow) and returns the port the Bash
 * tool runs commands through. When the sandbox cannot start it says so once and Bash asks for
 * approval as before — or, with `failIfUnavailable`, clew refuses to start. With the sandbox off
 * nothing else is loaded.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PermissionGate } from "../permissions/gate.ts";
import type { SandboxBoundary, SandboxConfig, SandboxPathEntry, SandboxView } from "../permissions/sandbox/types.ts";
import type { LoadedSettings, SandboxSettings } from "../settings/types.ts";
import type { SandboxPort } from "../tools/types.ts";
import { FatalError } from "../util/errors.ts";

export interface SandboxContext {
  settings: LoadedSettings;
  cwd: string;
  homeDir: string;
  /** The user config dir: what relative paths in user settings resolve against. */
  configDir: string;
  /** The child processes' PATH (where bwrap and nsenter are looked up). */
  path: string;
  platform?: string;
  isRoot?: boolean;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * A permission rule's path as a sandbox entry (spec §7.4: Edit allow/deny join allowWrite/denyWrite,
 * Read deny joins denyRead). Permission paths read `//x` absolute, `/x` from the settings file's
 * root, `~/x` from home, anything else from the start directory.
 */
function ruleEntry(pattern: string, root: string, cwd: string, rule: string): SandboxPathEntry {
  if (pattern.startsWith("//") || pattern.startsWith("~")) return { text: pattern, base: cwd, rule };
  if (pattern.startsWith("/")) return { text: join(root, pattern), base: cwd, rule };
  return { text: pattern, base: cwd, rule };
}

interface RuleLists {
  allowWrite: SandboxPathEntry[];
  denyWrite: SandboxPathEntry[];
  denyRead: SandboxPathEntry[];
  allowedDomains: string[];
  deniedDomains: string[];
}

function fromRules(loaded: LoadedSettings, cwd: string): RuleLists {
  const lists: RuleLists = { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [], deniedDomains: [] };
  for (const rule of loaded.rules) {
    const match = /^(Edit|Write|Read|WebFetch)\((.+)\)$/s.exec(rule.text.trim());
    if (!match) continue;
    const [, tool = "", content = ""] = match;
    if (tool === "WebFetch") {
      const domain = /^domain:(.+)$/.exec(content)?.[1];
      if (domain && rule.kind === "allow") lists.allowedDomains.push(domain);
      if (domain && rule.kind === "deny") lists.deniedDomains.push(domain);
      continue;
    }
    const entry = ruleEntry(content, rule.source.root, cwd, rule.text);
    if (tool === "Read" && rule.kind === "deny") lists.denyRead.push(entry);
    else if (tool !== "Read" && rule.kind === "allow") lists.allowWrite.push(entry);
    else if (tool !== "Read" && rule.kind === "deny") lists.denyWrite.push(entry);
  }
  return lists;
}

/**
 * The merged `sandbox` settings with defaults, each path with the base its file's relative paths
 * use, joined by the permission rules that widen or narrow the boundary.
 */
export function sandboxConfig(loaded: LoadedSettings, cwd: string, configDir: string): SandboxConfig {
  const sandbox = (loaded.settings.sandbox ?? {}) as SandboxSettings;
  const filesystem = sandbox.filesystem ?? {};
  const network = sandbox.network ?? {};
  const entries = (list: "allowWrite" | "denyWrite" | "denyRead" | "allowRead"): SandboxPathEntry[] =>
    strings(filesystem[list]).map((text, index) => ({ text, base: loaded.origins[`sandbox.filesystem.${list}[${index}]`]?.scope === "user" ? configDir : cwd }));
  const managedOnly = network.allowManagedDomainsOnly === true;
  const rules = fromRules(loaded, cwd);
  const allowedDomains = [
    ...strings(network.allowedDomains).filter((_, index) => !managedOnly || loaded.origins[`sandbox.network.allowedDomains[${index}]`]?.scope === "managed"),
    ...(managedOnly ? [] : rules.allowedDomains),
  ];
  return {
    enabled: sandbox.enabled === true,
    failIfUnavailable: sandbox.failIfUnavailable === true,
    autoAllowBashIfSandboxed: sandbox.autoAllowBashIfSandboxed !== false,
    allowUnsandboxedCommands: sandbox.allowUnsandboxedCommands !== false,
    excludedCommands: strings(sandbox.excludedCommands),
    allowWrite: [...entries("allowWrite"), ...rules.allowWrite],
    denyWrite: [...entries("denyWrite"), ...rules.denyWrite],
    denyRead: [...entries("denyRead"), ...rules.denyRead],
    allowRead: entries("allowRead"),
    allowedDomains,
    deniedDomains: [...strings(network.deniedDomains), ...rules.deniedDomains],
    allowLocalBinding: network.allowLocalBinding === true,
    strictAllowlist: network.strictAllowlist === true,
  };
}

/**
 * Sets the session's sandbox up: undefined when it is off or cannot start (said once through
 * `report`); a FatalError when it cannot start and `failIfUnavailable` is set.
 */
export async function setUpSandbox(context: SandboxContext & { gate: PermissionGate; report: (line: string) => void }): Promise<SandboxPort | undefined> {
  const config = sandboxConfig(context.settings, context.cwd, context.configDir);
  if (!config.enabled) return undefined;
  const { boundaryDirs, runnerFor, sandboxStatus } = await import("./sandbox-status.ts");
  const status = sandboxStatus(context);
  if (!status.availability.available) {
    const { reason, fix } = status.availability;
    if (config.failIfUnavailable) {
      throw new FatalError("config", `The Bash sandbox cannot start: ${reason}.`, `${fix[0]?.toUpperCase() ?? ""}${fix.slice(1)}, or unset sandbox.failIfUnavailable to run with the usual approvals instead.`);
    }
    context.report(`clew: sandbox.enabled is set but the sandbox cannot start: ${reason} (${fix}). Bash commands run unsandboxed and ask for approval as usual.`);
    return undefined;
  }
  // A permission rule's glob is still enforced by the gate; only the sandbox's own lists are reported.
  for (const skipped of status.policy.skipped.filter((item) => item.rule === undefined)) context.report(`clew: sandbox.${skipped.list} entry "${skipped.entry}" is not applied: ${skipped.why}.`);
  let dirs = boundaryDirs(context);
  const runner = await runnerFor(status, context, dirs.workingDirs);
  const close = (): void => runner.close();
  process.once("exit", close);
  const view: SandboxView = { autoAllow: config.autoAllowBashIfSandboxed, allowUnsandboxed: config.allowUnsandboxedCommands, excludedCommands: config.excludedCommands };
  context.gate.useSandbox(view);
  const [{ sessionBoundary, worktreeBoundary }, { decideSandboxFor }, { describeBlocked, findBlocked }] = await Promise.all([
    import("../permissions/sandbox/boundary.ts"),
    import("../permissions/sandbox-rules.ts"),
    import("../permissions/sandbox/violations.ts"),
  ]);
  let session = status.boundary;
  // One runner (proxy, network, /tmp) for the session; each port runs its commands under its own
  // boundary, the session's as it is when the command starts (a folder added with /add-dir widens it).
  const portFor = (boundaryNow: () => SandboxBoundary, shutDown: () => void): SandboxPort => ({
    close: shutDown,
    async prepare(request) {
      const decision = await decideSandboxFor(view, request.dangerouslyDisableSandbox ? { dangerouslyDisableSandbox: true } : {}, request.command);
      if (!decision.sandboxed) return { sandboxed: false, why: decision.why };
      const seq = runner.refusalSeq;
      const boundary = boundaryNow();
      const launch = await runner.launch(request.cwd, boundary);
      return {
        sandboxed: true,
        launch,
        // A refused connection is news even when the command carried on; error messages only when it failed.
        explain: (output) => describeBlocked(findBlocked(output.exitCode === 0 ? "" : `${output.stdout}\n${output.stderr}`, request.cwd, boundary, runner.refusalsAfter(seq), existsSync), config.allowUnsandboxedCommands),
      };
    },
    forWorktree: (path) => {
      const boundary = worktreeBoundary(config, dirs, path);
      return portFor(() => boundary, () => undefined);
    },
    addWorkingDir: (path) => {
      if (dirs.workingDirs.includes(path)) return;
      dirs = { ...dirs, workingDirs: [...dirs.workingDirs, path] };
      session = sessionBoundary(config, dirs);
    },
  });
  return portFor(() => session, () => {
    process.off("exit", close);
    runner.close();
  });
}
