/**
 * Rewind, for a running session (`/rewind`, Esc Esc, the SDK's `rewind_files`) and for a stored
 * one (`clew -p -r ID --rewind-to N`): the files go back through the session's checkpoints, the
 * conversation through its transcript. The transcript stays append-only: going back appends one
 * marker record chained onto the record just before the prompt (null before the first one), so
 * the newest chain — what a resume reads — is the conversation as it was then, and the later
 * turns stay in the file as an abandoned branch.
 */
import { estimateTokens } from "../context/compact.ts";
import type { Emit } from "../loop/events.ts";
import { answerDanglingToolUses } from "../loop/history.ts";
import type { LoopState } from "../loop/loop.ts";
import type { ContentBlockParam, MessageParam } from "../model/types.ts";
import { projectStateDir, type Environment } from "../settings/paths.ts";
import { sessionCheckpoints, type CheckpointPort } from "./checkpoints-setup.ts";
import { createRecorder } from "./recorder.ts";
import { loadResumed, type ResumeRequest } from "./resume.ts";
import type { SessionInfo, SessionServices } from "./session.ts";
import type { CheckpointRecord, RewindPlan, SessionCheckpoints, TurnChanges } from "../store/checkpoints/checkpoints.ts";
import { rebuildMessages } from "../store/rebuild.ts";
import { readTranscript, TranscriptWriter, type WriterIdentity } from "../store/transcript.ts";
import { FatalError } from "../util/errors.ts";
import { systemNote } from "../util/system-note.ts";

export type RewindScope = "both" | "conversation" | "code";

/** One prompt the session can go back to. */
export interface RewindPoint {
  prompt: number;
  /** The prompt as typed (its start). */
  text: string;
  at: string;
  /** What that prompt's turn changed in the files. */
  changes: TurnChanges;
  /** Whether the conversation can go back there too (it has a transcript position). */
  conversation: boolean;
}

/** What a rewind did (or, with `dryRun`, would do) to the files. */
export interface FilesRewound {
  /** Put back as they were (content and mode), or recreated. */
  restored: string[];
  /** Created after the checkpoint by the agent: removed. */
  removed: string[];
  /** Changed by hand since the checkpoint: left as they are. */
  kept: string[];
}

export interface RewindOutcome {
  prompt: number;
  /** The prompt's text, for the input box when the conversation went back. */
  text: string;
  scope: RewindScope;
  dryRun: boolean;
  files?: FilesRewound;
  /** Messages left in the conversation. */
  messages?: number;
}

/** The text recorded for a prompt: what the user typed, without clew's notes around it. */
export function promptText(blocks: readonly ContentBlockParam[]): string {
  const texts = blocks.flatMap((block) => (block.type === "text" && !block.text.startsWith("<system-reminder>") && block.text !== "[Request interrupted by user]" ? [block.text] : []));
  return (texts[0] ?? "").slice(0, 4000);
}

export async function rewindPoints(checkpoints: SessionCheckpoints): Promise<RewindPoint[]> {
  const changes = await checkpoints.turnChanges();
  return checkpoints.list().map((record) => ({
    prompt: record.prompt,
    text: record.text ?? "",
    at: record.at,
    changes: changes.get(record.prompt) ?? { files: 0, added: 0, removed: 0 },
    conversation: record.leaf !== undefined,
  }));
}

/** The checkpoint for `target` (a prompt number, or the transcript uuid of the prompt's message), or a usage error naming what exists. */
export function findPoint(checkpoints: SessionCheckpoints, target: number | string): CheckpointRecord {
  const records = checkpoints.list();
  const found = typeof target === "number" ? checkpoints.find(target) : records.find((record) => record.uuid === target || record.messageId === target);
  if (found) return found;
  if (records.length === 0) throw new FatalError("usage", "error: this session has no checkpoints to rewind to.", "Checkpoints are taken before each prompt unless fileCheckpointingEnabled is false.");
  const first = records[0]?.prompt ?? 1;
  const last = records[records.length - 1]?.prompt ?? first;
  const range = first === last ? `prompt ${first}` : `prompts ${first} to ${last}`;
  const asked = typeof target === "number" ? `prompt ${target}` : `a user message with id ${target}`;
  throw new FatalError("usage", `error: there is no checkpoint for ${asked}; this session has checkpoints for ${range} (N counts the session's prompts from 1).`);
}

/** Puts the files back to just before `prompt` (or says what that would do). */
export async function rewindFiles(checkpoints: SessionCheckpoints, prompt: number, options: { dryRun?: boolean; overwriteHandEdits?: boolean } = {}): Promise<FilesRewound> {
  const plan: RewindPlan | undefined = options.dryRun ? await checkpoints.plan(prompt) : await checkpoints.rewind(prompt, { overwriteHandEdits: options.overwriteHandEdits === true });
  if (!plan) return { restored: [], removed: [], kept: [] };
  const overwrite = options.dryRun && options.overwriteHandEdits ? plan.handEdits.filter((change) => change.status !== "A") : [];
  const changes = [...plan.restore, ...overwrite];
  return {
    restored: changes.filter((change) => change.status !== "A").map((change) => change.path),
    removed: changes.filter((change) => change.status === "A").map((change) => change.path),
    kept: plan.kept.filter((path) => !overwrite.some((change) => change.path === path)),
  };
}

/** The note the model finds where the conversation went back to (plain lines; wrapped where it is sent). */
export function rewindNote(prompt: number, scope: RewindScope, kept: readonly string[]): string {
  const after = {
    both: "what came after that point is undone.",
    code: "changes made to files since then are undone, though the conversation above still tells of them.",
    conversation: "the files stay as they are now, changes made after that point included.",
  }[scope];
  const what = scope === "both" ? "the conversation and the files" : scope === "code" ? "the files" : "the conversation";
  const lines = [`The user rewound ${what} to just before their prompt ${prompt}: ${after}`];
  if (kept.length > 0) lines.push(`Files the user changed by hand since were kept as they are: ${kept.join(", ")}.`);
  return lines.join("\n");
}

/**
 * Appends the marker that makes the conversation continue from `leaf`, and returns the writer
 * later records chain onto and the conversation as a resume will read it.
 */
export function branchTranscript(path: string, identity: WriterIdentity, leaf: string | null, note: string, now: Date): { writer: TranscriptWriter; messages: MessageParam[] } {
  const writer = TranscriptWriter.append(path, identity, leaf);
  writer.appendChained({ type: "user", isMeta: true, message: { role: "user", content: [{ type: "text", text: systemNote(note) }] } }, now);
  return { writer, messages: answerDanglingToolUses(rebuildMessages(readTranscript(path).records)) };
}

/** Lines that tell the user what a rewind did. */
export function describeRewind(outcome: RewindOutcome): string[] {
  const lines: string[] = [];
  const verb = outcome.dryRun ? "Would restore" : "Restored";
  const files = outcome.files;
  if (files) {
    const changed = [...files.restored, ...files.removed];
    if (changed.length === 0) lines.push(`${outcome.dryRun ? "No file would change" : "No file needed restoring"} (the files are as they were before prompt ${outcome.prompt}).`);
    if (files.restored.length > 0) lines.push(`${verb} ${count(files.restored.length, "file")}: ${files.restored.join(", ")}`);
    if (files.removed.length > 0) lines.push(`${outcome.dryRun ? "Would remove" : "Removed"} ${count(files.removed.length, "file")} created since: ${files.removed.join(", ")}`);
    if (files.kept.length > 0) lines.push(`Kept ${count(files.kept.length, "file")} changed by hand since: ${files.kept.join(", ")}`);
  }
  if (outcome.messages !== undefined) lines.push(`Conversation rewound to before prompt ${outcome.prompt} (${count(outcome.messages, "message")} kept).`);
  return lines;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** What a running session lends a rewind: its checkpoints, its conversation and its transcript. */
export interface RewindHost {
  checkpoints: CheckpointPort | undefined;
  /** The live conversation, changed in place. */
  messages: MessageParam[];
  /** Each prompt's message as this process sent it. */
  promptMessages: Map<number, MessageParam>;
  transcript: { path: string; identity: WriterIdentity } | undefined;
  /** Later records chain onto this writer. */
  swapWriter(writer: TranscriptWriter): void;
  /** A note for the model's next request. */
  queue(text: string): void;
  now(): Date;
}

/** A running session's side of a rewind; a rewound conversation's later records chain onto a new writer. */
export function liveRewindHost(services: SessionServices, info: SessionInfo, messages: MessageParam[], promptMessages: Map<number, MessageParam>): RewindHost {
  const now = (): Date => services.now?.() ?? new Date();
  return {
    checkpoints: services.checkpoints,
    messages,
    promptMessages,
    transcript: services.writer && info.transcriptPath ? { path: info.transcriptPath, identity: { sessionId: info.sessionId, cwd: info.cwd, version: info.version, gitBranch: "" } } : undefined,
    swapWriter: (writer) => {
      const recorder = createRecorder(writer, now);
      if (services.hookSink && services.hookSink.emit === services.recorder) services.hookSink.emit = recorder;
      services.writer?.close();
      services.writer = writer;
      services.recorder = recorder;
    },
    queue: (text) => services.context.queue(text),
    now,
  };
}

export interface RewindOptions {
  dryRun?: boolean;
  /** Put back files changed by hand too (never deleting one created since). */
  overwriteHandEdits?: boolean;
}

/** Where prompt `record` starts in the live conversation, or -1. */
export function promptIndex(host: Pick<RewindHost, "messages" | "promptMessages">, record: CheckpointRecord): number {
  const sent = host.promptMessages.get(record.prompt);
  if (sent) return host.messages.indexOf(sent);
  // From before a resume: the last user message that starts with what the user typed.
  if (!record.text) return -1;
  for (let i = host.messages.length - 1; i >= 0; i--) {
    const message = host.messages[i];
    if (message?.role === "user" && typeof message.content !== "string" && promptText(message.content) === record.text) return i;
  }
  return -1;
}

export async function rewindSession(host: RewindHost, target: number | string, scope: RewindScope, options: RewindOptions = {}): Promise<RewindOutcome> {
  if (!host.checkpoints) throw new FatalError("usage", "error: checkpoints are off in this session (fileCheckpointingEnabled is false), so there is nothing to rewind to.");
  if (host.checkpoints.failure !== undefined) throw new FatalError("usage", `error: checkpoints are off for this session: ${host.checkpoints.failure}`);
  const checkpoints = await host.checkpoints.load();
  const record = findPoint(checkpoints, target);
  const { prompt } = record;
  const dryRun = options.dryRun === true;
  const outcome: RewindOutcome = { prompt, text: record.text ?? "", scope, dryRun };
  const index = promptIndex(host, record);
  const branch = host.transcript && record.leaf !== undefined ? { ...host.transcript, leaf: record.leaf } : undefined;
  // Nothing is touched unless every part asked for can be done.
  if (scope !== "code" && !branch && index < 0) {
    throw new FatalError("usage", `error: the conversation cannot go back to before prompt ${prompt}: ${host.transcript ? "its place in the transcript was not recorded" : "it is no longer in memory and this session keeps no transcript"}.`, "Restore the code only.");
  }
  if (scope !== "conversation") outcome.files = await rewindFiles(checkpoints, prompt, options);
  else if (!dryRun) await checkpoints.forget(prompt);
  if (dryRun) return scope === "code" ? outcome : { ...outcome, ...(index >= 0 ? { messages: index } : {}) };
  for (const key of [...host.promptMessages.keys()]) if (key >= prompt) host.promptMessages.delete(key);
  const note = rewindNote(prompt, scope, outcome.files?.kept ?? []);
  if (scope === "code") {
    host.queue(note);
    return outcome;
  }
  let messages: MessageParam[];
  if (branch) {
    const branched = branchTranscript(branch.path, branch.identity, branch.leaf, note, host.now());
    host.swapWriter(branched.writer);
    messages = branched.messages;
  } else {
    messages = [...host.messages.slice(0, index), { role: "user", content: [{ type: "text", text: systemNote(note) }] }];
  }
  host.messages.splice(0, host.messages.length, ...messages);
  return { ...outcome, messages: messages.length - 1 };
}

/**
 * `clew -p -r ID --rewind-to N`: a stored session goes back to just before its N-th prompt, files
 * and conversation both — a resumed conversation that still told of edits no longer on disk would
 * mislead the model. Hand edits are kept and reported. No model, no hooks, no credentials.
 */
export async function rewindStoredSession(env: Environment, request: ResumeRequest, prompt: number, version: string): Promise<{ sessionId: string; outcome: RewindOutcome; conversationKept: boolean }> {
  const stateDir = projectStateDir(env.configDir, env.cwd);
  const resumed = loadResumed(env, stateDir, request);
  const notes: string[] = [];
  const port = sessionCheckpoints({ enabled: true, projectDir: env.cwd, stateDir, sessionId: resumed.sessionId, path: env.childEnv.PATH ?? "", report: (line) => notes.push(line) });
  if (!port) throw new FatalError("usage", "error: checkpoints are off.");
  const checkpoints = await port.load();
  const record = findPoint(checkpoints, prompt);
  let files: FilesRewound;
  try {
    files = await rewindFiles(checkpoints, record.prompt);
  } catch (error) {
    throw new FatalError("io", `error: could not restore the files of session ${resumed.sessionId}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  const outcome: RewindOutcome = { prompt: record.prompt, text: record.text ?? "", scope: "both", dryRun: false, files };
  if (record.leaf === undefined) return { sessionId: resumed.sessionId, outcome, conversationKept: false };
  const identity: WriterIdentity = { sessionId: resumed.sessionId, cwd: env.cwd, version, gitBranch: "" };
  const branched = branchTranscript(resumed.path, identity, record.leaf, rewindNote(record.prompt, "both", files.kept), new Date());
  branched.writer.close();
  return { sessionId: resumed.sessionId, outcome: { ...outcome, messages: Math.max(0, branched.messages.length - 1) }, conversationKept: true };
}

/**
 * The SDK's `rewind_files {user_message_id, dry_run}` answered as Claude Code answers it
 * (`canRewind`, `error`, `filesChanged`), plus clew's `filesKept` (changed by hand, left alone).
 */
export async function rewindFilesAnswer(rewind: (target: string, options: { dryRun: boolean }) => Promise<RewindOutcome>, userMessageId: string, dryRun: boolean): Promise<Record<string, unknown>> {
  try {
    const { files } = await rewind(userMessageId, { dryRun });
    return { canRewind: true, filesChanged: [...(files?.restored ?? []), ...(files?.removed ?? [])], filesKept: files?.kept ?? [] };
  } catch (error) {
    if (!(error instanceof FatalError)) throw error;
    return { canRewind: false, error: error.message.replace(/^error: /, "") };
  }
}

/**
 * `/rewind` → summarise from here: the prompt's turn and everything after it become a summary;
 * what came before stays as it is, and the transcript's new chain holds it too.
 */
export async function summariseFrom(
  session: { state: LoopState; promptMessages: Map<number, MessageParam>; services: Pick<SessionServices, "checkpoints" | "context"> },
  prompt: number,
  instructions: string | undefined,
  emit: Emit,
  signal: AbortSignal,
): Promise<{ ok: boolean; reason?: string }> {
  const { state, promptMessages, services } = session;
  const record = (await services.checkpoints?.load())?.find(prompt);
  const index = record ? promptIndex({ messages: state.messages, promptMessages }, record) : -1;
  if (index < 0) return { ok: false, reason: `prompt ${prompt} is not in the conversation as it stands (compacted already?).` };
  const head = state.messages.slice(0, index);
  const later: LoopState = { messages: state.messages.slice(index) };
  const withHead: Emit = (event) => emit(event.type === "compact_boundary" ? { ...event, messages: [...head, ...event.messages] } : event);
  const result = await services.context.compact(later, "manual", instructions, estimateTokens(later.messages), withHead, signal);
  if (result.ok) state.messages.splice(0, state.messages.length, ...head, ...later.messages);
  return result.ok ? { ok: true } : { ok: false, reason: result.reason };
}
