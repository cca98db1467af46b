/**
 * Turns one finished handler (exit code, stdout, stderr) into what it means for its event
 * (hooks.md §6.1–6.2): exit 0 = success, stdout read as JSON or text; exit 2 = the event's blocking
 * effect, stderr as the reason (JSON on stdout still read); any other code = non-blocking error,
 * unless stdout is valid JSON, which then decides alone.
 */
import { EVENT_TRAITS, type HookEventName } from "./events.ts";
import { type HookOutput, parseStdout } from "./output.ts";
import type { CompiledHook, HookRunOutcome } from "./types.ts";

export interface PromptVerdict {
  ok: boolean;
  reason?: string;
  impossible?: boolean;
}

export interface HandlerResult {
  hook: CompiledHook;
  hookName: string;
  status: HookRunOutcome;
  /** Validated JSON output that is to be honoured. */
  output?: HookOutput;
  /** Plain stdout, on events where it becomes context. */
  text?: string;
  /** Exit 2: stderr, the reason for the event's blocking effect. */
  exitTwoReason?: string;
  /** A `<hook> hook error` notice for the user. */
  error?: string;
  /** A prompt hook's answer. */
  verdict?: PromptVerdict;
  /** For the run record: what the engine made of the output. */
  message?: string;
}

export interface RawRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0]?.trim() ?? "";
}

export function interpretExit(hook: CompiledHook, hookName: string, event: HookEventName, run: RawRun, lenient: boolean): HandlerResult {
  const traits = EVENT_TRAITS[event];
  const parsed = parseStdout(run.stdout, event, lenient);
  const base: HandlerResult = { hook, hookName, status: "success" };
  const notes: string[] = [];
  if (parsed.kind === "json") {
    base.output = parsed.output;
    notes.push(...parsed.notes);
  } else if (parsed.kind === "text") {
    if (parsed.note) notes.push(parsed.note);
    if (traits.plainStdoutIsContext && run.exitCode === 0) base.text = parsed.text;
    else if (run.exitCode === 0) notes.push(`plain stdout is not used on ${event} (only JSON starting with "{" is read)`);
  }
  const invalid = parsed.kind === "invalid" ? `invalid JSON output: ${parsed.issues.join("; ")}` : undefined;

  if (run.exitCode === 0) {
    if (invalid) return withNotes({ ...base, status: "error", error: `${hookName} hook error: ${invalid}` }, notes);
    return withNotes(base, notes);
  }
  if (run.exitCode === 2) {
    if (invalid) notes.push(`${invalid} (ignored; exit code 2 still applies)`);
    const reason = run.stderr.trim();
    switch (traits.exitTwo) {
      case "block":
      case "feedback":
        return withNotes({ ...base, status: "blocked", exitTwoReason: reason }, notes);
      case "notice":
        return withNotes({ ...base, status: "error", error: `${hookName} hook error: ${firstLine(run.stderr) || "exit code 2 (no stderr output)"}` }, notes);
      case "ignored":
        notes.push(`exit code 2 has no effect on ${event}${event === "PermissionRequest" ? ' (answer with hookSpecificOutput.decision instead)' : ""}`);
        return withNotes({ ...base, status: "error" }, notes);
    }
  }
  // Any other code: the JSON alone decides when it is valid; otherwise a non-blocking error.
  if (parsed.kind === "json") return withNotes(base, notes);
  const detail = firstLine(run.stderr) || "No stderr output";
  const error = invalid
    ? `${hookName} hook error: ${invalid}`
    : `${hookName} hook error: Failed with non-blocking status code ${run.exitCode}: ${detail}`;
  return withNotes({ hook, hookName, status: "error", error }, notes);
}

function withNotes(result: HandlerResult, notes: string[]): HandlerResult {
  const parts = [result.error, ...notes].filter((part): part is string => part !== undefined && part !== "");
  return parts.length > 0 ? { ...result, message: parts.join("; ") } : result;
}

/** The model's verdict for a prompt hook: `{"ok": true}` or `{"ok": false, "reason": "…"}`, maybe inside prose or a code fence. */
export function parseVerdict(reply: string): PromptVerdict | { error: string } {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start < 0 || end < start) return { error: `the model did not answer with JSON like {"ok": true} (got ${JSON.stringify(reply.slice(0, 80))})` };
  let json: unknown;
  try {
    json = JSON.parse(reply.slice(start, end + 1));
  } catch {
    return { error: `the model's answer is not valid JSON (got ${JSON.stringify(reply.slice(start, start + 80))})` };
  }
  if (typeof json !== "object" || json === null || typeof (json as { ok?: unknown }).ok !== "boolean") {
    return { error: 'the model\'s answer has no boolean "ok" field' };
  }
  const { ok, reason, impossible } = json as { ok: boolean; reason?: unknown; impossible?: unknown };
  return { ok, ...(typeof reason === "string" ? { reason } : {}), ...(impossible === true ? { impossible: true } : {}) };
}

/** How one handler ended, before its output is interpreted. */
export type Execution =
  /** A process exit (command), or an HTTP response mapped onto one. */
  | { kind: "exit"; run: RawRun }
  | { kind: "verdict"; verdict: PromptVerdict; reply: string }
  /** Could not run or answered unusably: a non-blocking error. */
  | { kind: "error"; message: string; run?: RawRun }
  | { kind: "timeout"; run?: RawRun }
  | { kind: "cancelled"; run?: RawRun };
