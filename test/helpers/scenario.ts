// Shared checks for scenario tests against the compiled binary: stream-json frames, transcript
// integrity (no partial or duplicate turns), and waiting on a running child without timing asserts.
import { expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import type { FakeServer, Json, RecordedRequest, Reply } from "../fake-anthropic/index.ts";
import { transcripts } from "./clew-process.ts";
import { transcriptLines, transcriptMessages, withoutCacheControl } from "./transcript.ts";

export type Frame = Record<string, unknown> & { type: string };
export type TranscriptLine = Record<string, unknown> & { type: string };

/** NDJSON stdout of `--output-format stream-json`: every line must be one JSON object. */
export function parseFrames(stdout: string): Frame[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Frame);
}

/** The fake's n-th recorded request (0-based); fails the test when it was never sent. */
export function requestAt(fake: FakeServer, index: number): RecordedRequest {
  const request = fake.requests[index];
  if (!request) throw new Error(`request #${index + 1} was never sent (the fake received ${fake.requests.length})`);
  return request;
}

/** `assistant:text`, `assistant:tool_use`, `user:tool_result`, `result:` — the shape of a run. */
export function frameKinds(frames: readonly Frame[]): string[] {
  return frames
    .filter((frame) => frame.type !== "system")
    .map((frame) => {
      const content = (frame.message as { content?: Array<{ type: string }> } | undefined)?.content;
      return `${frame.type}:${content?.[0]?.type ?? ""}`;
    });
}

export function systemFrames(frames: readonly Frame[], subtype: string): Frame[] {
  return frames.filter((frame) => frame.type === "system" && frame.subtype === subtype);
}

/**
 * Polls until `probe` returns a value (not undefined/false). The deadline only keeps a broken
 * build from hanging the suite; nothing is asserted about how long the wait took.
 */
export async function waitFor<T>(probe: () => T | undefined | false, what: string, deadlineMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** The one transcript under a config dir (fails if there is none or more than one). */
export function onlyTranscript(configDir: string): string {
  const found = transcripts(configDir);
  expect(found.length).toBe(1);
  return found[0] as string;
}

/** Lines of the transcript that parse, or undefined while the file does not exist yet. */
export function readLines(path: string | undefined): TranscriptLine[] | undefined {
  if (path === undefined || !existsSync(path)) return undefined;
  return transcriptLines(path) as TranscriptLine[];
}

function contentOf(record: TranscriptLine): Array<Record<string, unknown>> {
  const message = record.message as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? (message.content as Array<Record<string, unknown>>) : [];
}

/** The tool_use blocks the transcript holds, in order. */
export function storedToolUses(path: string): Array<{ id: string; name: string; input: unknown }> {
  return (transcriptLines(path) as TranscriptLine[])
    .filter((record) => record.type === "assistant")
    .flatMap((record) => contentOf(record))
    .flatMap((block) =>
      block.type === "tool_use" ? [{ id: block.id as string, name: block.name as string, input: block.input }] : [],
    );
}

/** The tool_result blocks the transcript holds, in order. */
export function storedToolResults(path: string): Array<Record<string, unknown>> {
  return (transcriptLines(path) as TranscriptLine[])
    .filter((record) => record.type === "user")
    .flatMap((record) => contentOf(record))
    .filter((block) => block.type === "tool_result");
}

/**
 * No partial or duplicate turns: every line parses, each API reply's records are contiguous
 * and its id appears in one run only, no block repeats inside a reply, tool_use ids and
 * tool_result ids are unique, and no rebuilt assistant message appears twice.
 */
export function expectNoDuplicateTurns(path: string): void {
  const lines = transcriptLines(path) as TranscriptLine[];
  const assistant = lines.filter((record) => record.type === "assistant");
  const runs: Array<{ id: unknown; blocks: string[] }> = [];
  for (const record of assistant) {
    const id = (record.message as { id?: unknown }).id;
    const last = runs[runs.length - 1];
    const blocks = contentOf(record).map((block) => JSON.stringify(block));
    if (last && last.id === id) last.blocks.push(...blocks);
    else runs.push({ id, blocks });
  }
  const ids = runs.map((run) => run.id);
  expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  for (const run of runs) expect(new Set(run.blocks).size).toBe(run.blocks.length);

  const toolUseIds = storedToolUses(path).map((use) => use.id);
  expect(new Set(toolUseIds).size).toBe(toolUseIds.length);
  const resultIds = storedToolResults(path).map((block) => block.tool_use_id);
  expect(new Set(resultIds).size).toBe(resultIds.length);

  const rebuilt = transcriptMessages(path)
    .filter((message) => message.role === "assistant")
    .map((message) => JSON.stringify(message));
  expect(new Set(rebuilt).size).toBe(rebuilt.length);
}

/** The stored conversation is exactly what the model last saw, plus its final text reply. */
export function expectTranscriptIsLastRequestPlus(path: string, lastRequestMessages: Json | undefined, finalText: string): void {
  const stored = transcriptMessages(path);
  expect(stored.slice(0, -1)).toEqual(withoutCacheControl(lastRequestMessages) as typeof stored);
  expect(stored.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: finalText }] });
}

/**
 * How many visible (non-ping) events of `reply` to send so a stream fault lands after a
 * complete text block and inside the first tool_use's input.
 */
export function eventsIntoFirstToolInput(reply: Reply): number {
  const visible = reply.events().filter((event) => event.type !== "ping");
  const start = visible.findIndex((event) => event.type === "content_block_start" && event.content_block.type === "tool_use");
  if (start < 0) throw new Error("reply has no tool_use block");
  return start + 2;
}

export function fileText(path: string): string {
  return readFileSync(path, "utf8");
}

/** Collects a child's output as it arrives, so a test can wait for a line before acting. */
export function collect(stream: ReadableStream<Uint8Array>): { text(): string; done: Promise<string> } {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
    return text;
  })();
  return { text: () => text, done };
}
