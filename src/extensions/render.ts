/**
 * Rendering a skill or command invocation (spec A.6): substitutions first, then the `!` commands
 * and `@` files the text asks for. The renderer never runs a process or reads a file: it returns
 * the requests, an injected port carries them out (through the permission gate), and a pure step
 * puts the results in. `prepareInvocation` and `completeInvocation` are the pure halves;
 * `renderInvocation` joins them with a port.
 */
import { findRequests } from "./injections.ts";
import { substitute, substituteVariables, type RenderVariables } from "./substitute.ts";
import type { Invocable } from "./types.ts";

export type ShellAction = { kind: "shell"; form: "inline" | "block"; command: string; shell: "bash" | "powershell"; pattern: string };
export type FileAction = { kind: "file"; path: string };
export type RenderAction = ShellAction | FileAction;

export type ShellOutcome = { status: "ran"; exitCode: number; output: string } | { status: "denied"; reason: string };
export type FileOutcome = { status: "read"; content: string } | { status: "unavailable"; reason: string };

/** What the lead passes in: runs commands through the Bash tool and the gate, reads files like `@` mentions. */
export interface RenderPort {
  runShell(action: ShellAction): Promise<ShellOutcome>;
  readFile(action: FileAction): Promise<FileOutcome>;
}

export type RenderTarget = Pick<Invocable, "dir" | "argumentNames" | "shell" | "source">;

export interface RenderInput {
  item: RenderTarget;
  /** The body from `registry.loadBody`. */
  body: string;
  /** The argument string as typed (`/deploy staging "eu west"` → `staging "eu west"`). */
  args: string;
  vars: RenderVariables;
  /** `disableSkillShellExecution`: commands are replaced by a notice instead of run (managed skills excepted). */
  shellExecution?: "enabled" | "disabled";
}

export interface PreparedInvocation {
  /** The body after substitutions, with `ARGUMENTS: …` appended when it has no placeholder. */
  text: string;
  actions: RenderAction[];
  /** Offsets of each action's placeholder in `text` (file references keep their text). */
  spans: { start: number; end: number }[];
  /** `ultrathink` in the body asks for deep reasoning. */
  deepThinking: boolean;
}

export interface Attachment {
  path: string;
  content: string;
}

export type RenderResult =
  | { ok: true; text: string; attachments: Attachment[]; unavailable: { path: string; reason: string }[]; deepThinking: boolean }
  | { ok: false; code: "shell-failed" | "shell-denied"; pattern: string; message: string };

export const SHELL_DISABLED_NOTICE = "[shell command execution disabled by policy]";

/** Commands whose exit status 1 means "no match" / "differs", not failure. */
const EXIT_ONE_OK = new Set(["grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "diff", "cmp", "colordiff", "test", "["]);

/** The program of the last simple command, whose status is the line's status. */
function lastProgram(command: string): string {
  const segments = command.split(/\|\||&&|[|;\n]/).map((part) => part.trim()).filter((part) => part !== "");
  const words = (segments.at(-1) ?? "").split(/\s+/).filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const first = words[0] ?? "";
  return first.slice(first.lastIndexOf("/") + 1);
}

function inside(position: number, spans: readonly { start: number; end: number }[]): boolean {
  return spans.some((span) => position >= span.start && position < span.end);
}

/** Plugin items get `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}` from their source. */
function variablesFor(item: RenderTarget, vars: RenderVariables): RenderVariables {
  const plugin = item.source.scope === "plugin";
  return {
    ...(plugin ? { pluginRoot: item.source.root } : {}),
    ...(plugin && item.source.pluginData !== undefined ? { pluginData: item.source.pluginData } : {}),
    ...vars,
  };
}

/** The `allowed-tools` rules an invocation grants, with `${CLAUDE_SKILL_DIR}` and friends filled in (spec A.2). */
export function grantedRules(item: RenderTarget & Pick<Invocable, "allowedTools">, vars: RenderVariables): string[] {
  const filled = variablesFor(item, vars);
  return item.allowedTools.map((rule) => substituteVariables(rule, item, filled));
}

/** The meta message a rendered skill is injected as (observed framing, spec A.5). */
export function skillMessage(item: Pick<Invocable, "dir">, text: string): string {
  return `Base directory for this skill: ${item.dir}\n\n${text}`;
}

export function prepareInvocation(input: RenderInput): PreparedInvocation {
  const vars = variablesFor(input.item, input.vars);
  const shellDisabled = input.shellExecution === "disabled" && input.item.source.scope !== "managed";
  const substituted = substitute(input.body, input.args, input.item, vars);
  let text = substituted.text;
  const argumentSpans = [...substituted.argumentSpans];
  const args = input.args.trim();
  if (!substituted.usesArguments && args !== "") {
    const prefix = `${text.replace(/\s+$/, "")}\n\nARGUMENTS: `;
    argumentSpans.push({ start: prefix.length, end: prefix.length + args.length });
    text = prefix + args;
  }
  const actions: RenderAction[] = [];
  const spans: { start: number; end: number }[] = [];
  const disabled: { start: number; end: number }[] = [];
  for (const request of findRequests(text)) {
    if (inside(request.start, argumentSpans)) continue;
    if (request.kind === "file") {
      actions.push({ kind: "file", path: request.path });
      spans.push({ start: request.start, end: request.end });
    } else if (shellDisabled) {
      disabled.push({ start: request.start, end: request.end });
    } else {
      actions.push({ kind: "shell", form: request.form, command: request.command, shell: input.item.shell, pattern: request.pattern });
      spans.push({ start: request.start, end: request.end });
    }
  }
  for (const span of disabled.reverse()) {
    const delta = SHELL_DISABLED_NOTICE.length - (span.end - span.start);
    text = text.slice(0, span.start) + SHELL_DISABLED_NOTICE + text.slice(span.end);
    for (const other of spans) {
      if (other.start >= span.end) {
        other.start += delta;
        other.end += delta;
      }
    }
  }
  return { text, actions, spans, deepThinking: /\bultrathink\b/i.test(input.body) };
}

/** Puts the port's outcomes (one per action, in order) into the text; pure. */
export function completeInvocation(prepared: PreparedInvocation, outcomes: readonly (ShellOutcome | FileOutcome)[]): RenderResult {
  const attachments: Attachment[] = [];
  const unavailable: { path: string; reason: string }[] = [];
  const replacements: { start: number; end: number; text: string }[] = [];
  for (const [index, action] of prepared.actions.entries()) {
    const outcome = outcomes[index];
    const span = prepared.spans[index];
    if (outcome === undefined || span === undefined) throw new Error(`completeInvocation: no outcome for action ${index}`);
    if (action.kind === "file") {
      if (outcome.status === "read") attachments.push({ path: action.path, content: outcome.content });
      else if (outcome.status === "unavailable") unavailable.push({ path: action.path, reason: outcome.reason });
      continue;
    }
    if (outcome.status === "denied") {
      return { ok: false, code: "shell-denied", pattern: action.pattern, message: `Shell command permission check failed for pattern "${action.pattern}": ${outcome.reason}` };
    }
    if (outcome.status !== "ran") continue;
    if (outcome.exitCode !== 0 && !(outcome.exitCode === 1 && EXIT_ONE_OK.has(lastProgram(action.command)))) {
      const output = outcome.output.trim();
      const tail = output.length > 2000 ? `…${output.slice(-2000)}` : output;
      return {
        ok: false,
        code: "shell-failed",
        pattern: action.pattern,
        message: `Shell command failed for pattern "${action.pattern}": exit code ${outcome.exitCode}${tail === "" ? "" : `\n${tail}`}`,
      };
    }
    replacements.push({ ...span, text: outcome.output.replace(/\n+$/, "") });
  }
  let text = prepared.text;
  for (const replacement of replacements.sort((a, b) => b.start - a.start)) {
    text = text.slice(0, replacement.start) + replacement.text + text.slice(replacement.end);
  }
  return { ok: true, text, attachments, unavailable, deepThinking: prepared.deepThinking };
}

/** Renders an invocation, running its requests one at a time in order through `port`. */
export async function renderInvocation(input: RenderInput, port: RenderPort): Promise<RenderResult> {
  const prepared = prepareInvocation(input);
  const outcomes: (ShellOutcome | FileOutcome)[] = [];
  for (const action of prepared.actions) {
    const outcome = action.kind === "shell" ? await port.runShell(action) : await port.readFile(action);
    outcomes.push(outcome);
    if (action.kind === "shell" && (outcome.status === "denied" || (outcome.status === "ran" && outcome.exitCode !== 0))) {
      // A failure aborts the whole invocation: later commands must not run.
      const early = completeInvocation({ ...prepared, actions: prepared.actions.slice(0, outcomes.length), spans: prepared.spans.slice(0, outcomes.length) }, outcomes);
      if (!early.ok) return early;
    }
  }
  return completeInvocation(prepared, outcomes);
}
