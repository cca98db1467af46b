/**
 * Which Bash calls run inside the OS sandbox (spec §7.3), one decision shared by the permission
 * gate (auto-allow) and the Bash tool (how it starts the command), so the two never disagree:
 * a line runs unsandboxed when any of its commands matches `excludedCommands`, or when the model
 * asks with `dangerouslyDisableSandbox: true` and `allowUnsandboxedCommands` lets it.
 */
import { denyMatches, hasWildcard, matchCommandPattern } from "./bash-rules.ts";
import type { SimpleCommand } from "./shell-types.ts";
import type { SandboxView } from "./sandbox/types.ts";

export type SandboxDecision = { sandboxed: true } | { sandboxed: false; why: string };

/** `docker`, `docker *` and `Bash(docker *)` all name the same commands; a bare name covers its arguments too. */
function patternsOf(entry: string): string[] {
  const text = entry.trim().replace(/^Bash\((.*)\)$/s, "$1").trim();
  if (text === "") return [];
  return hasWildcard(text) ? [text] : [text, `${text} *`];
}

export function excludedBy(view: SandboxView, whole: string, commands: readonly SimpleCommand[]): string | undefined {
  return view.excludedCommands.find((entry) =>
    patternsOf(entry).some((pattern) => matchCommandPattern(pattern, whole.trim()) || commands.some((command) => denyMatches(pattern, command))),
  );
}

export function escapeRequested(input: unknown): boolean {
  return typeof input === "object" && input !== null && (input as { dangerouslyDisableSandbox?: unknown }).dangerouslyDisableSandbox === true;
}

export function decideSandbox(view: SandboxView, input: unknown, whole: string, commands: readonly SimpleCommand[]): SandboxDecision {
  if (escapeRequested(input) && view.allowUnsandboxed) return { sandboxed: false, why: "the call asked to run outside the sandbox (dangerouslyDisableSandbox)" };
  const excluded = excludedBy(view, whole, commands);
  if (excluded !== undefined) return { sandboxed: false, why: `it matches "${excluded}" in sandbox.excludedCommands` };
  return { sandboxed: true };
}

/** The same decision from the command text alone (the Bash tool, at run time). */
export async function decideSandboxFor(view: SandboxView, input: unknown, command: string): Promise<SandboxDecision> {
  if (escapeRequested(input) && view.allowUnsandboxed) return decideSandbox(view, input, command, []);
  const { splitCommand } = await import("./shell-split.ts");
  const split = await splitCommand(command);
  return decideSandbox(view, input, command, split.commands);
}
