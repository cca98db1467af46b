/**
 * One headless run: clew's stderr goes to the step's log as it comes, stdout is kept and read as
 * the json result (an object; with `verbose` settings an array whose last `result` element
 * counts, cli-headless.md §3).
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";

export interface ClewResult {
  type: "result";
  subtype: string;
  is_error: boolean;
  session_id?: string;
  total_cost_usd?: number;
  num_turns?: number;
  duration_ms?: number;
  result?: string;
  errors?: string[];
  terminal_reason?: string;
  permission_denials?: Array<{ tool_name?: string; tool_use_id?: string; tool_input?: unknown }>;
  [field: string]: unknown;
}

export interface RunOutcome {
  /** clew's exit code; 128 + the signal's number when a signal ended it. */
  exitCode: number;
  /** The result object, when stdout held one. */
  result: ClewResult | undefined;
  stdout: string;
  /** The last lines of stderr, for the failure message when there is no result. */
  stderrTail: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: Buffer | undefined;
  /** Where clew's stderr goes (the step's log). */
  onStderr: (text: string) => void;
}

const isResult = (value: unknown): value is ClewResult =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "result" && typeof (value as { subtype?: unknown }).subtype === "string";

/** The result in clew's json stdout, or undefined when it printed none. */
export function parseResult(stdout: string): ClewResult | undefined {
  const text = stdout.trim();
  if (text === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A last line of NDJSON still counts, so a stray line before the result does not hide it.
    const last = text.split("\n").pop() ?? "";
    try {
      parsed = JSON.parse(last);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(parsed)) return [...parsed].reverse().find(isResult);
  return isResult(parsed) ? parsed : undefined;
}

export function runClew(binary: string, args: string[], options: RunOptions): Promise<RunOutcome> {
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(binary, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    let stderrTail = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      options.onStderr(text);
      stderrTail = (stderrTail + text).slice(-4000);
    });
    child.on("error", (error) => rejectRun(new Error(`could not start ${binary}: ${error.message}`)));
    // clew may end before reading all of a long prompt (a usage error); that is its exit code's story.
    child.stdin.on("error", () => {});
    // An empty stdin that is closed at once: clew takes the prompt argument alone.
    child.stdin.end(options.stdin ?? Buffer.alloc(0));
    child.on("close", (code, signal) => {
      const text = Buffer.concat(stdout).toString("utf8");
      const exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      resolveRun({ exitCode, result: parseResult(text), stdout: text, stderrTail: stderrTail.trim() });
    });
  });
}

/** Why the step fails: the result's own error text, else what clew last said on stderr. */
export function failureMessage(outcome: RunOutcome): string {
  const { result } = outcome;
  if (result !== undefined) {
    const reason = result.errors && result.errors.length > 0 ? result.errors.join("; ") : result.result && result.result !== "" ? result.result : result.subtype;
    return `clew exited with ${outcome.exitCode} (${result.subtype}): ${reason}`;
  }
  const lastLine = outcome.stderrTail.split("\n").filter((line) => line.trim() !== "").pop();
  return `clew exited with ${outcome.exitCode} and printed no json result${lastLine ? `: ${lastLine}` : ""}`;
}
