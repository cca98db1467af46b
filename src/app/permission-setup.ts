/**
 * Turns settings into the permission gate and the set of tools the model sees: the starting
 * mode (flag, else settings, with bypass refusable by policy), the compiled rules, and the
 * tools that bare deny rules remove.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { readDenied } from "../permissions/evaluate.ts";
import { createGate, type GateOptions, type PermissionGate } from "../permissions/gate.ts";
import { compileRules, toolVisibility, type RuleSet } from "../permissions/rules.ts";
import { PERMISSION_MODES, type ApprovalPort, type InactiveRuleInput, type PermissionContext, type PermissionMode, type RuleInput } from "../permissions/types.ts";
import type { LoadedSettings } from "../settings/types.ts";
import type { AnyTool } from "../tools/types.ts";
import type { HookRunner } from "../hooks/outcomes.ts";
import { FatalError } from "../util/errors.ts";
import { createFileSystemView } from "./file-view.ts";

export interface PermissionSetup {
  gate: PermissionGate;
  rules: RuleSet;
  /** Mutable: the interactive UI can change the mode mid-session. */
  state: { mode: PermissionMode };
  context: () => PermissionContext;
  visibleTools: AnyTool[];
  readDenied: (absPath: string) => boolean;
  /** `/add-dir`: one more directory the file tools may work in, for the rest of the session. */
  addWorkingDir: (absPath: string) => boolean;
  warnings: string[];
}

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function startingMode(flag: PermissionMode | undefined, settings: LoadedSettings, unsandboxedRoot = false): PermissionMode {
  const permissions = settings.settings.permissions;
  const configured = permissions.defaultMode === "manual" ? "default" : permissions.defaultMode;
  const fromSettings = PERMISSION_MODES.includes(configured as PermissionMode) ? (configured as PermissionMode) : undefined;
  const mode = flag ?? fromSettings ?? "default";
  if (mode === "bypassPermissions" && permissions.disableBypassPermissionsMode === "disable") {
    throw new FatalError(
      "config",
      "Bypass permissions mode is disabled by your settings (permissions.disableBypassPermissionsMode).",
      "Run without --dangerously-skip-permissions / --permission-mode bypassPermissions.",
    );
  }
  if (mode === "bypassPermissions" && unsandboxedRoot) {
    throw new FatalError(
      "config",
      "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons.",
      "Run as a normal user, or inside a container or sandbox (set IS_SANDBOX=1 if clew cannot detect it).",
    );
  }
  return mode;
}

export function setUpPermissions(input: {
  settings: LoadedSettings;
  flagMode: PermissionMode | undefined;
  unsandboxedRoot: boolean;
  cwd: string;
  homeDir: string;
  tools: readonly AnyTool[];
  ask: ApprovalPort | undefined;
  /** Where Bash runs now: a `cd` in one command carries over to the next. */
  shellCwd?: () => string;
  /** The session's hooks, once they exist (PermissionRequest, PermissionDenied). */
  hooks?: () => HookRunner | undefined;
}): PermissionSetup {
  const { settings } = input;
  const rules = compileRules(settings.rules as RuleInput[], { inactive: settings.inactiveRules as InactiveRuleInput[] });
  const state = { mode: startingMode(input.flagMode, settings, input.unsandboxedRoot) };
  const workingDirs = settings.settings.permissions.additionalDirectories.map((dir) => resolve(input.cwd, dir));
  const files = createFileSystemView();
  const context = (): PermissionContext => ({
    mode: state.mode,
    cwd: input.cwd,
    workingDirs,
    homeDir: input.homeDir,
    realpath,
    shellCwd: input.shellCwd?.() ?? input.cwd,
    files,
  });
  const hidden = new Set(toolVisibility(rules, input.tools.map((tool) => tool.name)));
  return {
    gate: createGate({ rules, context, ask: input.ask, ...permissionHooks(input.hooks) }),
    rules,
    state,
    context,
    visibleTools: input.tools.filter((tool) => !hidden.has(tool.name)),
    readDenied: (absPath) => readDenied(rules, absPath, context()),
    addWorkingDir: (absPath) => {
      if (workingDirs.includes(absPath)) return false;
      workingDirs.push(absPath);
      return true;
    },
    warnings: rules.warnings.map((warning) => `${warning.source.file ?? warning.source.scope}: ${warning.rule}: ${warning.message}`),
  };
}

function toolInput(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** PermissionRequest hooks answer an approval before a human does; PermissionDenied hooks hear of automatic denials. */
function permissionHooks(hooks: (() => HookRunner | undefined) | undefined): Pick<GateOptions, "beforeAsk" | "onAutoDeny"> {
  if (!hooks) return {};
  return {
    beforeAsk: async (request) => {
      const runner = hooks();
      if (!runner?.hasHooks("PermissionRequest")) return undefined;
      const outcome = await runner.fire("PermissionRequest", { tool_name: request.toolName, tool_input: toolInput(request.input) });
      const decision = outcome.decision;
      if (!decision) return undefined;
      return decision.behavior === "allow" ? { allow: true } : { allow: false, ...(decision.message ? { reason: decision.message } : {}) };
    },
    onAutoDeny: async (request, reason) => {
      const runner = hooks();
      if (!runner?.hasHooks("PermissionDenied")) return undefined;
      const outcome = await runner.fire("PermissionDenied", { tool_name: request.toolName, tool_input: toolInput(request.input), tool_use_id: request.toolUseId, reason });
      return outcome.retry ? "A PermissionDenied hook says you may retry this call." : undefined;
    },
  };
}
