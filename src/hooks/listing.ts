/**
 * Every configured hook with its event, matcher, type, command, source and problems, for `/hooks`
 * and `clew doctor`. Hooks that never run are listed too, with the reason, so nothing is dropped
 * out of sight; problems that belong to no listed hook (a malformed block) are listed separately.
 */
import { commandText } from "./execute.ts";
import type { CompiledHook, HandlerType, HookConfig, HookEventName, HookProblem, HookSourceInfo } from "./types.ts";

export interface HookListing {
  id: string;
  event: HookEventName;
  matcher?: string;
  type: HandlerType;
  /** The command (placeholders resolved), the URL, or the prompt's first line. */
  command: string;
  timeoutSeconds: number;
  async: boolean;
  sourceId: string;
  /** `User Settings`, `Plugin Hooks (fmt@acme)`, … */
  source: string;
  file: string;
  keyPath: string;
  sharedProject: boolean;
  active: boolean;
  inactiveReason?: string;
  problems: HookProblem[];
}

export interface HookListingReport {
  hooks: HookListing[];
  /** Problems not tied to one listed hook: malformed blocks, unknown events, duplicate files. */
  problems: HookProblem[];
}

/** A problem belongs to a hook when it is about the hook itself or its group's matcher or its event. */
function concerns(problem: HookProblem, hook: CompiledHook): boolean {
  if (problem.sourceId !== hook.sourceId || problem.keyPath === undefined) return false;
  const path = problem.keyPath;
  if (path === hook.keyPath || path.startsWith(`${hook.keyPath}.`)) return true;
  if (path.endsWith(".matcher")) return hook.keyPath.startsWith(`${path.slice(0, -".matcher".length)}.hooks[`);
  return hook.keyPath.startsWith(`${path}[`);
}

export function listHooks(config: HookConfig): HookListingReport {
  const sources = new Map<string, HookSourceInfo>(config.sources.map((source) => [source.id, source]));
  const used = new Set<HookProblem>();
  const hooks: HookListing[] = [];
  for (const hook of config.hooks) {
    const source = sources.get(hook.sourceId);
    if (!source) continue;
    const problems = config.problems.filter((problem) => concerns(problem, hook));
    for (const problem of problems) used.add(problem);
    hooks.push({
      id: hook.id,
      event: hook.event,
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      type: hook.spec.type,
      command: commandText(hook, config.projectDir, source),
      timeoutSeconds: hook.timeoutMs / 1000,
      async: hook.spec.type === "command" && hook.spec.async,
      sourceId: source.id,
      source: source.label,
      file: source.file,
      keyPath: hook.keyPath,
      sharedProject: source.sharedProject,
      active: hook.inactive === undefined,
      ...(hook.inactive !== undefined ? { inactiveReason: hook.inactive } : {}),
      problems,
    });
  }
  return { hooks, problems: config.problems.filter((problem) => !used.has(problem)) };
}

function shortPath(file: string, homeDir: string | undefined): string {
  return homeDir && homeDir !== "/" && file.startsWith(`${homeDir}/`) ? `~${file.slice(homeDir.length)}` : file;
}

/** Plain lines grouped by event (the UI adds colour); every problem appears once. */
export function formatHookListing(report: HookListingReport, homeDir?: string): string[] {
  const lines: string[] = [];
  const byEvent = new Map<HookEventName, HookListing[]>();
  for (const hook of report.hooks) byEvent.set(hook.event, [...(byEvent.get(hook.event) ?? []), hook]);
  if (report.hooks.length === 0) lines.push("No hooks configured.");
  for (const [event, hooks] of byEvent) {
    lines.push(event);
    for (const hook of hooks) {
      const matcher = hook.matcher === undefined || hook.matcher === "" ? "*" : hook.matcher;
      const flags = [hook.type, hook.async ? "async" : "", `${hook.timeoutSeconds}s`].filter(Boolean).join(", ");
      lines.push(`  ${matcher}  ${hook.command}  (${flags})`);
      lines.push(`    from ${hook.source}: ${shortPath(hook.file, homeDir)} ${hook.keyPath}${hook.sharedProject ? " [shared project file]" : ""}`);
      if (!hook.active) lines.push(`    not run: ${hook.inactiveReason ?? ""}`);
      for (const problem of hook.problems) lines.push(`    ${problem.severity}: ${problem.message}`);
    }
  }
  for (const problem of report.problems) lines.push(`${problem.severity}: ${shortPath(problem.file, homeDir)}: ${problem.message}`);
  return lines;
}
