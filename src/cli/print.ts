/**
 * Headless mode (`clew -p`): one turn, output as text, json or stream-json, and Claude Code's
 * exit codes. All three formats consume the same event stream; none re-implements the loop.
 */
import { openSession } from "../app/bootstrap.ts";
import type { Session } from "../app/session.ts";
import type { AgentEvent, Emit, LoopOutcome } from "../loop/events.ts";
import { zeroUsage } from "../model/types.ts";
import type { Environment } from "../settings/paths.ts";
import { FatalError } from "../util/errors.ts";
import type { CliOptions } from "./args.ts";
import { buildResult, textResult } from "../app/result.ts";
import { sessionFlags } from "./session-flags.ts";
import { STDIN_LIMIT, stdinTooLarge } from "./stdio.ts";
import { framesFor, initFrame, type Frame } from "./stream-json.ts";

export interface PrintIO {
  write(text: string): void;
  writeError(text: string): void;
  stdoutIsTTY: boolean;
  readStdin(): Promise<string>;
  onSignal(handler: (signal: "SIGINT" | "SIGTERM") => void): void;
  /** Standard input as it arrives, for `--input-format stream-json` (default: the process's own). */
  input?: AsyncIterable<Uint8Array | string>;
}

/** `--permission-prompt-tool`: only `stdio`, the host of a stream-json session, can answer prompts. */
function checkPromptTool(options: CliOptions): void {
  const tool = options.permissionPromptTool;
  if (tool === undefined) return;
  if (tool !== "stdio") {
    throw new FatalError("usage", `error: --permission-prompt-tool ${tool} is not supported: clew asks permission only over the control protocol.`, "Use --permission-prompt-tool stdio with --input-format stream-json (the Agent SDK's canUseTool).");
  }
  if (options.inputFormat !== "stream-json") {
    throw new FatalError("usage", "error: --permission-prompt-tool stdio needs --input-format stream-json and --output-format stream-json: the answers arrive on standard input.");
  }
}

async function resolvePrompt(options: CliOptions, io: PrintIO): Promise<string> {
  const piped = await io.readStdin();
  // Bytes, not characters; a text under a quarter of the limit in characters is under it in bytes (UTF-8 takes at most 4 per character).
  if (piped.length > STDIN_LIMIT / 4 && Buffer.byteLength(piped) > STDIN_LIMIT) throw stdinTooLarge();
  const parts = [piped.trim(), options.prompt?.trim() ?? ""].filter((part) => part !== "");
  if (parts.length === 0) {
    throw new FatalError("usage", "Error: Input must be provided either through stdin or as a prompt argument when using --print");
  }
  return parts.join("\n\n");
}

/** `clew -p -c "/compact [instructions]"`: summarise the resumed conversation now. */
async function compactNow(session: Session, instructions: string | undefined, emit: Emit, signal: AbortSignal): Promise<LoopOutcome> {
  const result = await session.compact(instructions?.trim() || undefined, emit, signal);
  const base: LoopOutcome = { reason: "completed", stopReason: null, numTurns: 0, finalText: "", usage: zeroUsage(), apiMs: 0, denials: [] };
  if (result.ok) return { ...base, finalText: "Conversation compacted." };
  return { ...base, reason: "api_error", error: { message: result.reason ?? "Compaction failed.", status: null, category: "unknown" } };
}

/** `Bash(git push)`, `Read(/etc/passwd)`: what was denied, short enough for one stderr line. */
function deniedCall(name: string, input: unknown): string {
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const subject = [fields.command, fields.file_path, fields.notebook_path, fields.path, fields.url, fields.pattern].find((value) => typeof value === "string");
  if (typeof subject !== "string") return name;
  const line = subject.replace(/\s+/g, " ").trim();
  return `${name}(${line.length > 80 ? `${line.slice(0, 79)}…` : line})`;
}

export async function runPrint(options: CliOptions, env: Environment, version: string, io: PrintIO): Promise<number> {
  if (options.resume === true) {
    throw new FatalError("usage", "error: --resume needs a session ID with --print.", "Pass the ID (clew -p -r <id> …), use -c for the latest session, or run clew -r without -p to pick one.");
  }
  if (options.outputFormat === "stream-json" && !options.verbose) {
    throw new FatalError("usage", "Error: When using --print, --output-format=stream-json requires --verbose");
  }
  checkPromptTool(options);
  if (options.promptSuggestions) io.writeError("clew: --prompt-suggestions has no effect: clew makes no prompt suggestions\n");
  if (options.inputFormat === "stream-json") {
    if (options.outputFormat !== "stream-json") throw new FatalError("usage", "Error: --input-format=stream-json requires output-format=stream-json.");
    if (options.prompt !== undefined) {
      throw new FatalError("usage", "error: a prompt argument with --input-format stream-json is not supported: the prompts of a stream-json session arrive on standard input.", 'Send it as a line: {"type":"user","message":{"role":"user","content":"…"}}');
    }
    const { runStreamingSession } = await import("./control/streaming.ts");
    return runStreamingSession(options, env, version, { ...io, input: io.input ?? Bun.stdin.stream() });
  }
  const started = performance.now();
  if (options.initOnly) return await runSetupOnly(options, env, version, io);
  const prompt = await resolvePrompt(options, io);
  const session: Session = await openSession({
    ...sessionFlags(options, env, version),
    // Only partial messages (--include-partial-messages) show each event of a reply as it streams.
    streamEvents: options.includePartialMessages,
    ...(options.setup ? { setupTrigger: options.setup } : {}),
    ...(options.jsonSchema !== undefined ? { jsonSchema: options.jsonSchema } : {}),
    resume: options.continue ? { kind: "continue" } : typeof options.resume === "string" ? { kind: "id", id: options.resume } : undefined,
    fork: options.forkSession,
    sessionId: options.sessionId,
    waitForBackground: true,
    report: (line) => io.writeError(`${line}\n`),
  });
  // A mistyped `/command` fails here, before any request; --disable-slash-commands sends slash text as typed.
  // Loaded only for a prompt that starts with a slash.
  const unknownCommand = options.disableSlashCommands || !prompt.trimStart().startsWith("/") ? undefined : await (await import("./unknown-command.ts")).unknownCommandError(prompt, session);
  if (unknownCommand) {
    await session.close();
    throw unknownCommand;
  }

  const controller = new AbortController();
  let signalExit: number | undefined;
  io.onSignal((signal) => {
    signalExit ??= signal === "SIGINT" ? 130 : 143;
    controller.abort(new Error(`Received ${signal}`));
  });

  // --max-wall-time: the run is stopped at the deadline (counted from the start), helpers with it.
  let wallTimeUp = false;
  const wall =
    options.maxWallTimeMs === undefined
      ? undefined
      : setTimeout(() => {
          wallTimeUp = true;
          controller.abort(new Error("maximum wall time reached"));
        }, Math.max(0, options.maxWallTimeMs - (performance.now() - started)));

  const info = session.info;
  // `verbose: true` (or `viewMode: "verbose"`) in settings turns json output into the message array too, as in Claude Code.
  const verboseJson = options.outputFormat === "json" && (options.verbose || session.settings.settings.verbose === true || session.settings.settings.viewMode === "verbose");
  const collected: Frame[] = [];
  const emitFrame = (frame: Frame) => {
    if (options.outputFormat === "stream-json") io.write(`${JSON.stringify(frame)}\n`);
    else if (verboseJson) collected.push(frame);
  };
  const streamText = options.outputFormat === "text" && io.stdoutIsTTY;
  let midLine = false;
  const onEvent = (event: AgentEvent) => {
    if (options.outputFormat !== "text") for (const frame of framesFor(event, info, options.includePartialMessages)) emitFrame(frame);
    if (event.type === "api_retry" && event.fallbackModel) io.writeError(`clew: ${event.message}\n`);
    else if (event.type === "api_retry") {
      io.writeError(`clew: API ${event.status ?? event.category} — retrying in ${Math.round(event.delayMs / 100) / 10}s (attempt ${event.attempt}/${event.maxRetries})\n`);
    }
    if (event.type === "notice") io.writeError(`clew: ${event.message}\n`);
    // A denial would otherwise be silent in text mode: the run "succeeds" having done less.
    if (event.type === "permission_denied" && options.outputFormat === "text") io.writeError(`clew: denied ${deniedCall(event.name, event.input)}: ${event.reason.split("\n")[0]}\n`);
    if (!streamText) return;
    if (event.type === "text_delta") {
      io.write(event.text);
      midLine = !event.text.endsWith("\n");
    }
    if (event.type === "assistant_message" && midLine) {
      io.write("\n");
      midLine = false;
    }
  };

  // Built only for a stream that prints it (its plugin list reads the stored record's ids).
  if (options.outputFormat === "stream-json" || verboseJson) emitFrame(initFrame(info));
  let outcome: LoopOutcome;
  try {
    const compact = /^\/compact(?:\s+([\s\S]*))?$/.exec(prompt.trim());
    outcome = compact
      ? await compactNow(session, compact[1], onEvent, controller.signal)
      : await session.runTurn(prompt, onEvent, controller.signal);
  } finally {
    clearTimeout(wall);
    await session.close();
  }
  const built = buildResult(outcome, {
    sessionId: info.sessionId,
    model: info.model,
    durationMs: performance.now() - started,
    maxTurns: options.maxTurns ?? env.maxTurns,
    context: session.contextUsage(),
    helperUsage: session.helperUsage(),
    ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
  });
  const timed = wallTimeUp && built.is_error ? wallTimeResult(built, options.maxWallTimeMs ?? 0) : built;
  const result = options.failOnDenial && !timed.is_error && timed.permission_denials.length > 0 ? deniedResult(timed) : timed;
  emitFrame(result as unknown as Frame);
  if (options.outputFormat === "json") io.write(`${JSON.stringify(verboseJson ? collected : result)}\n`);
  if (options.outputFormat === "text") {
    // A failure's error text goes to stdout too (spec cli-headless §3): `out=$(clew -p …)` gets it; the exit code says it failed.
    const { text, failed } = textResult(result);
    if (failed || !streamText) io.write(`${text}\n`);
  }
  if (signalExit !== undefined) return signalExit;
  return result.is_error ? 1 : 0;
}

/** `--init-only`: the Setup hooks (trigger `init`) and SessionStart's run as the session opens; nothing is asked of the model. */
async function runSetupOnly(options: CliOptions, env: Environment, version: string, io: PrintIO): Promise<number> {
  const session = await openSession({ ...sessionFlags(options, env, version), setupTrigger: "init", persist: false, waitForBackground: false, report: (line) => io.writeError(`${line}\n`) });
  await session.close();
  return 0;
}

/** `--fail-on-denial`: a run that finished with calls denied is a failure a pipeline sees; the answer stays in `result`. */
function deniedResult(result: ReturnType<typeof buildResult>): ReturnType<typeof buildResult> {
  const denials = result.permission_denials;
  const calls = [...new Set(denials.map((denial) => denial.tool_name))].join(", ");
  return { ...result, subtype: "error_during_execution", is_error: true, errors: [`${denials.length} tool ${denials.length === 1 ? "call was" : "calls were"} denied (${calls}) and --fail-on-denial is set`], terminal_reason: "permission_denied" };
}

/** A run --max-wall-time stopped: an error of its own kind, not an interrupt. */
function wallTimeResult(result: ReturnType<typeof buildResult>, ms: number): ReturnType<typeof buildResult> {
  const { result: _text, ...rest } = result;
  const seconds = Math.round(ms / 100) / 10;
  return { ...rest, subtype: "error_during_execution", is_error: true, errors: [`Reached maximum wall time (${seconds}s)`], terminal_reason: "max_wall_time" };
}
