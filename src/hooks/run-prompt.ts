/**
 * Runs a `prompt` handler (hooks.md §4.4) through a port the composition root supplies (a small,
 * fast model call). `$ARGUMENTS` in the prompt becomes the input JSON (`\$` keeps a literal
 * dollar); without it the JSON is appended. The model must answer `{"ok": true}` or
 * `{"ok": false, "reason": "…"}`; what `ok: false` does depends on the event (combine.ts).
 */
import { parseVerdict, type Execution } from "./result.ts";
import type { PromptSpec } from "./types.ts";

/** One model call: the prompt text, the hook's `model` if it names one, and the abort signal. */
export type PromptPort = (prompt: string, model: string | undefined, signal: AbortSignal) => Promise<string>;

const ESCAPED = "\u0000DOLLAR\u0000";

export function promptText(template: string, inputJson: string): string {
  const guarded = template.replaceAll("\\$", ESCAPED);
  const filled = guarded.includes("$ARGUMENTS") ? guarded.replaceAll("$ARGUMENTS", inputJson) : `${guarded}\n\n${inputJson}`;
  return filled.replaceAll(ESCAPED, "$");
}

export async function runPrompt(spec: PromptSpec, port: PromptPort | undefined, inputJson: string, timeoutMs: number, signal?: AbortSignal): Promise<Execution> {
  if (!port) return { kind: "error", message: "prompt hooks need a model, and none is available in this session" };
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let reply: string;
  try {
    reply = await abortable(port(promptText(spec.prompt, inputJson), spec.model, combined), combined);
  } catch (error) {
    if (signal?.aborted) return { kind: "cancelled" };
    if (timeout.aborted) return { kind: "timeout" };
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "error", message: `the model call failed: ${message}` };
  }
  const verdict = parseVerdict(reply);
  if ("error" in verdict) return { kind: "error", message: verdict.error, run: { exitCode: 1, stdout: reply, stderr: "" } };
  return { kind: "verdict", verdict, reply };
}

/** A port that ignores its signal must still not hold the event past the timeout. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
