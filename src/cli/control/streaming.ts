/**
 * `clew -p --input-format stream-json --output-format stream-json`: the session stays up while
 * standard input is open, each user message read runs as one turn (later ones queue), and
 * control requests are answered while a turn runs. A first-line `initialize` is read before the
 * session opens, so its system prompt, agents and in-process MCP servers shape it.
 */
import { openSession } from "../../app/bootstrap.ts";
import { hostMcpServers, type HostMcpServers } from "../../app/mcp-setup.ts";
import { buildResult } from "../../app/result.ts";
import { rewindFilesAnswer } from "../../app/session-rewind.ts";
import type { Session } from "../../app/session.ts";
import type { SessionOptions } from "../../app/session-options.ts";
import type { AgentEvent } from "../../loop/events.ts";
import type { Environment } from "../../settings/paths.ts";
import { errorMessage } from "../../util/errors.ts";
import type { CliOptions } from "../args.ts";
import { sessionFlags } from "../session-flags.ts";
import { framesFor, initFrame } from "../stream-json.ts";
import { ControlChannel, type Frame } from "./channel.ts";
import { inputErrorFrame, replayFrame, SessionStateFrames } from "./frames.ts";
import { patchedFlagSettings, sdkCheckpointPatch } from "./flag-settings.ts";
import { parseHookCallbacks, startHookRelay, type HookRelay } from "./hook-relay.ts";
import { initializeResponse, parseInitialize, type InitConfig } from "./initialize.ts";
import { readInputItems, type InboundItem } from "./input.ts";
import { controlApprovalPort } from "./permission-port.ts";
import { AsyncQueue } from "./queue.ts";
import { answerControl, type ControlContext } from "./requests.ts";

export interface StreamingIO {
  write(text: string): void;
  writeError(text: string): void;
  /** Standard input, as it arrives. */
  input: AsyncIterable<Uint8Array | string>;
  onSignal(handler: (signal: "SIGINT" | "SIGTERM") => void): void;
}

type UserItem = Extract<InboundItem, { kind: "user" }>;

/** Model aliases offered to the host's model picker (`supportedModels()`). */
const MODEL_ALIASES = [
  { alias: "default", description: "The session's default model" },
  { alias: "opus", description: "The most capable model" },
  { alias: "sonnet", description: "Fast and capable" },
  { alias: "haiku", description: "The fastest, for simple tasks" },
];

/** The first item that is not a keep-alive: an initialize request, or whatever came instead. */
async function firstItem(inbox: AsyncQueue<InboundItem>): Promise<InboundItem | undefined> {
  for (;;) {
    const next = await inbox.next();
    if (next.done) return undefined;
    if (next.value.kind !== "keep_alive") return next.value;
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** What initialize adds to the options the command line gave. */
function withInit(flags: ReturnType<typeof sessionFlags>, init: InitConfig | undefined): Partial<SessionOptions> {
  if (!init) return {};
  const append = [flags.appendSystemPrompt, init.appendSystemPrompt].filter((part) => part !== undefined && part.trim() !== "").join("\n\n");
  return {
    ...(init.systemPrompt !== undefined ? { systemPrompt: init.systemPrompt } : {}),
    ...(append !== "" ? { appendSystemPrompt: append } : {}),
    ...(init.agents ? { agentsJson: { ...objectOf(flags.agentsJson), ...init.agents } } : {}),
    ...(init.jsonSchema !== undefined ? { jsonSchema: init.jsonSchema } : {}),
  };
}

interface Opening {
  /** What a first-line initialize asked for, and its request id (to answer once the session is open). */
  init?: InitConfig;
  initRequestId?: string;
  /** The first item when it was not an initialize: handled once the session is open. */
  early: InboundItem[];
}

/** Reads the first item; undefined when it was an initialize that had to be refused (answered here). */
async function takeInitialize(inbox: AsyncQueue<InboundItem>, channel: ControlChannel, io: StreamingIO): Promise<Opening | undefined> {
  const first = await firstItem(inbox);
  if (first?.kind !== "control_request" || first.request.subtype !== "initialize") return { early: first ? [first] : [] };
  const parsed = parseInitialize(first.request);
  if (!parsed.ok) {
    // Going on would run the host's prompts without what it asked for (its schema, its settings).
    channel.fail(first.requestId, parsed.error);
    io.writeError(`clew: ${parsed.error}\n`);
    return undefined;
  }
  for (const notice of parsed.notices) io.writeError(`clew: ${notice}\n`);
  return { init: parsed.config, initRequestId: first.requestId, early: [] };
}

export async function runStreamingSession(options: CliOptions, env: Environment, version: string, io: StreamingIO): Promise<number> {
  const write = (frame: Frame) => io.write(`${JSON.stringify(frame)}\n`);
  const channel = new ControlChannel(write);
  const inbox = new AsyncQueue<InboundItem>();
  const reading = (async () => {
    try {
      for await (const item of readInputItems(io.input)) {
        // A control_response no request waits for answers one that was cancelled: nothing to do.
        if (item.kind === "control_response") channel.settle(item.response);
        else inbox.push(item);
      }
    } catch (error) {
      inbox.push({ kind: "invalid", line: 0, message: `standard input could not be read: ${errorMessage(error)}` });
    } finally {
      inbox.end();
      channel.close("standard input ended, so the host can no longer answer");
    }
  })();

  let sessionId: string | undefined;
  const states = new SessionStateFrames(write, env.childEnv.CLAUDE_CODE_SDK_READS_SESSION_STATE === "1", () => sessionId ?? "");
  const badInput = (message: string, line: number) => {
    write(inputErrorFrame(message, line, sessionId));
    io.writeError(`clew: ${message}; the line was skipped\n`);
  };

  const opening = await takeInitialize(inbox, channel, io);
  if (!opening) return 1;
  const { init, initRequestId, early } = opening;
  let relay: HookRelay | undefined;
  let settings: string | undefined;
  try {
    const callbacks = init?.hooks ? parseHookCallbacks(init.hooks) : undefined;
    if (callbacks && !callbacks.ok) throw new Error(callbacks.error);
    if (callbacks) relay = startHookRelay(callbacks.events, channel);
    const checkpoints = sdkCheckpointPatch(env.childEnv);
    settings = patchedFlagSettings(options.settings, [...(relay ? [relay.addTo] : []), ...(checkpoints ? [checkpoints] : [])]);
  } catch (error) {
    relay?.close();
    if (initRequestId) channel.fail(initRequestId, errorMessage(error));
    io.writeError(`clew: ${errorMessage(error)}\n`);
    return 1;
  }

  let current: AbortController | undefined;
  const interrupt = (why: string): boolean => {
    if (!current || current.signal.aborted) return false;
    current.abort(new Error(why));
    return true;
  };
  const host: HostMcpServers | undefined =
    init && init.sdkMcpServers.length > 0
      ? hostMcpServers(init.sdkMcpServers, async (server, message) => (await channel.request({ subtype: "mcp_message", server_name: server, message })).mcp_response)
      : undefined;
  const ask =
    options.permissionPromptTool === "stdio"
      ? controlApprovalPort(channel, {
          asking: () => states.set("requires_action"),
          answered: () => states.set("running"),
          interrupt: () => interrupt("Interrupted: the host denied a tool call and asked to stop"),
          notice: (message) => io.writeError(`clew: ${message}\n`),
        })
      : undefined;
  const flags = sessionFlags(options, env, version);
  let session: Session;
  try {
    session = await openSession({
      ...flags,
      ...(options.jsonSchema !== undefined ? { jsonSchema: options.jsonSchema } : {}),
      ...withInit(flags, init),
      ...(settings !== options.settings ? { cli: { ...flags.cli, settings } } : {}),
      resume: options.continue ? { kind: "continue" } : typeof options.resume === "string" ? { kind: "id", id: options.resume } : undefined,
      fork: options.forkSession,
      sessionId: options.sessionId,
      waitForBackground: true,
      report: (line) => io.writeError(`${line}\n`),
      ...(ask ? { ask, interactive: false } : {}),
      ...(host ? { hostMcpServers: host.transports } : {}),
    });
  } catch (error) {
    if (initRequestId) channel.fail(initRequestId, errorMessage(error));
    relay?.close();
    throw error;
  }
  sessionId = session.info.sessionId;
  if (initRequestId) {
    const agents = await session.agentTypes();
    channel.succeed(initRequestId, initializeResponse({ commands: session.userInvocables(), agents, models: MODEL_ALIASES, apiKeySource: session.info.apiKeySource, outputStyle: session.info.outputStyle, outputStyles: session.info.outputStyles, ...(relay ? { hooksApplied: true } : {}) }));
  }

  const turns = new AsyncQueue<UserItem>();
  let signalExit: number | undefined;
  io.onSignal((signal) => {
    signalExit ??= signal === "SIGINT" ? 130 : 143;
    interrupt(`Received ${signal}`);
    // Nothing queued runs after a signal: the turn under way ends, then the session closes.
    turns.takeAll();
    turns.end();
  });
  const context: ControlContext = {
    session,
    interrupt: (cancelQueued) => {
      interrupt("Interrupted by the host");
      if (!cancelQueued) return { still_queued: turns.peek().map((queued) => queued.uuid ?? "") };
      return { still_queued: [], cancelled: turns.takeAll().map((queued) => queued.uuid ?? "") };
    },
    bypassAllowed: options.allowDangerouslySkipPermissions || session.permissionMode === "bypassPermissions",
    initialized: initRequestId !== undefined,
    deliverMcp: (server, message) => host?.deliver(server, message) ?? false,
    rewindFiles: (userMessageId, dryRun) => rewindFilesAnswer((target, rewind) => session.rewindFiles(target, rewind), userMessageId, dryRun),
  };
  const route = (item: InboundItem) => {
    switch (item.kind) {
      case "user": {
        if (item.sessionId !== undefined && item.sessionId !== session.info.sessionId && item.sessionId !== "default") {
          badInput(`line ${item.line} of standard input is a message for session ${item.sessionId}, but this session is ${session.info.sessionId}`, item.line);
          return;
        }
        // A message without the host's uuid gets one: the echo then names a prompt rewind_files can find.
        const named = { ...item, uuid: item.uuid ?? crypto.randomUUID() };
        if (options.replayUserMessages) write(replayFrame(named.content, session.info.sessionId, named.uuid));
        turns.push(named);
        return;
      }
      case "control_request":
        void answerControl(item.request, context).then(
          (answer) => (answer.ok ? channel.succeed(item.requestId, answer.response) : channel.fail(item.requestId, answer.error)),
          (error: unknown) => channel.fail(item.requestId, `${item.request.subtype} failed: ${errorMessage(error)}`),
        );
        return;
      case "invalid":
        badInput(item.message, item.line);
        return;
      default:
        return;
    }
  };
  const dispatching = (async () => {
    for (const item of early) route(item);
    for await (const item of inbox) route(item);
    turns.end();
  })();

  let lastFailed = false;
  try {
    for await (const item of turns) {
      const started = performance.now();
      const controller = new AbortController();
      current = controller;
      write(initFrame(session.info));
      states.set("running");
      const onEvent = (event: AgentEvent) => {
        for (const frame of framesFor(event, session.info, options.includePartialMessages)) write(frame);
        if (event.type === "notice") io.writeError(`clew: ${event.message}\n`);
      };
      let outcome;
      try {
        // The message's uuid names the prompt for a later rewind_files.
        outcome = await session.runTurn(item.content, onEvent, controller.signal, item.uuid ? { messageId: item.uuid } : {});
      } finally {
        current = undefined;
      }
      const facts = {
        sessionId: session.info.sessionId,
        model: session.info.model,
        durationMs: performance.now() - started,
        maxTurns: options.maxTurns ?? env.maxTurns,
        context: session.contextUsage(),
        helperUsage: session.helperUsage(),
        ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
      };
      const result = buildResult(outcome, facts);
      // Cost and per-model usage are running totals of the session (the SDK reads the latest result's).
      const sessionTotals = buildResult({ ...outcome, usage: session.usage }, facts);
      write({ ...result, total_cost_usd: sessionTotals.total_cost_usd, modelUsage: sessionTotals.modelUsage } as unknown as Frame);
      // An interrupt is what the host asked for, not a failure of the session.
      lastFailed = result.is_error && result.subtype !== "error_during_execution";
      if (turns.size === 0) states.set("idle");
    }
  } finally {
    await session.close();
    relay?.close();
  }
  if (signalExit === undefined) await dispatching;
  if (signalExit === undefined) await reading;
  return signalExit ?? (lastFailed ? 1 : 0);
}
