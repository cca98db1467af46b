// Resilience against the API and the network, through the compiled binary: every fault the fake
// can inject hits the 2nd request of a tool loop, is retried, and the task still finishes with a
// transcript that holds exactly one copy of each turn. Then the two ways retrying must stop.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  dropConnection,
  http,
  midStreamError,
  overloaded,
  rateLimited,
  reply,
  serverError,
  stall,
  startFakeAnthropic,
  toolResults,
  type Fault,
  type FakeServer,
  type ScriptStep,
} from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { transcriptLines, transcriptMessages, withoutReminders } from "../helpers/transcript.ts";
import {
  eventsIntoFirstToolInput,
  expectNoDuplicateTurns,
  expectTranscriptIsLastRequestPlus,
  frameKinds,
  onlyTranscript,
  parseFrames,
  requestAt,
  systemFrames,
  type TranscriptLine,
} from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

const PROMPT = "read notes.txt, then echo the word it contains";
const DONE = "notes.txt says alpha and the echo printed beta.";
const PARTIAL_MARK = "PARTIAL-ATTEMPT";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The reply a stream fault starts to send before failing: none of it may survive. */
function partialReply() {
  return reply().text(`${PARTIAL_MARK}: this attempt is cut off`).toolUse("Bash", { command: `echo ${PARTIAL_MARK}` });
}

/** Read → (fault on request 2, then its retry) → Bash → final answer. */
function toolLoop(notesPath: string, fault: Fault): ScriptStep[] {
  return [
    reply().text("Reading the notes.").toolUse("Read", { file_path: notesPath }),
    fault,
    (request) =>
      toolResults(request)[0]?.text.includes("alpha")
        ? reply().toolUse("Bash", { command: "echo beta", description: "Print beta" })
        : reply().text("Read did not return the notes."),
    (request) => reply().text(toolResults(request)[0]?.text === "beta" ? DONE : "echo did not print beta."),
  ];
}

interface FaultCase {
  name: string;
  fault: () => Fault;
  env?: Record<string, string>;
  retry: { error_status: number | null; error: string; retry_delay_ms?: number };
}

const CASES: FaultCase[] = [
  { name: "429 with retry-after", fault: () => rateLimited(1), retry: { error_status: 429, error: "rate_limit", retry_delay_ms: 1000 } },
  { name: "529 overloaded", fault: () => overloaded(), retry: { error_status: 529, error: "overloaded" } },
  { name: "500 server error", fault: () => serverError(), retry: { error_status: 500, error: "server_error" } },
  {
    name: "mid-stream error event",
    fault: () => {
      const partial = partialReply();
      return midStreamError(partial, eventsIntoFirstToolInput(partial));
    },
    retry: { error_status: null, error: "overloaded" },
  },
  {
    name: "dropped connection",
    fault: () => {
      const partial = partialReply();
      return dropConnection(partial, eventsIntoFirstToolInput(partial));
    },
    retry: { error_status: null, error: "connection" },
  },
  {
    name: "stalled stream",
    fault: () => {
      const partial = partialReply();
      return stall(partial, eventsIntoFirstToolInput(partial));
    },
    env: { CLEW_STREAM_IDLE_TIMEOUT_MS: "1000" },
    retry: { error_status: null, error: "stalled" },
  },
];

describe("faults: each is retried and the task completes", () => {
  for (const faultCase of CASES) {
    test(faultCase.name, async () => {
      const dir = writeWorkspace({ "notes.txt": "alpha\n" });
      const configDir = tempDirectory("clew-config-");
      const fake = (server = await startFakeAnthropic({ script: toolLoop(join(dir, "notes.txt"), faultCase.fault()) }));
      const run = await runClew(
        ["-p", PROMPT, "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"],
        { cwd: dir, baseURL: fake.url, configDir, env: faultCase.env },
      );

      expect(fake.violations).toEqual([]);
      expect(run.code).toBe(0);
      expect(fake.requests.length).toBe(4);
      expect(fake.remainingSteps()).toBe(0);
      // The retry resends the very same conversation.
      expect(requestAt(fake, 2).body.messages).toEqual(requestAt(fake, 1).body.messages);

      const frames = parseFrames(run.stdout);
      const retries = systemFrames(frames, "api_retry");
      expect(retries).toEqual([
        {
          type: "system",
          subtype: "api_retry",
          attempt: 1,
          max_retries: 10,
          retry_delay_ms: faultCase.retry.retry_delay_ms ?? expect.any(Number),
          error_status: faultCase.retry.error_status,
          error: faultCase.retry.error,
          session_id: expect.any(String),
          uuid: expect.any(String),
        },
      ]);
      // No frame of the failed attempt reaches the consumer.
      expect(run.stdout).not.toContain(PARTIAL_MARK);
      expect(frameKinds(frames)).toEqual([
        "assistant:text", "assistant:tool_use", "user:tool_result",
        "assistant:tool_use", "user:tool_result",
        "assistant:text", "result:",
      ]);
      expect(frames.at(-1)).toMatchObject({ type: "result", subtype: "success", is_error: false, result: DONE, num_turns: 3 });

      const path = onlyTranscript(configDir);
      const lines = transcriptLines(path) as TranscriptLine[];
      expect(JSON.stringify(lines)).not.toContain(PARTIAL_MARK);
      expect(lines.filter((line) => line.type === "system" && line.subtype === "api_error")).toEqual([
        expect.objectContaining({
          error: { status: faultCase.retry.error_status, category: faultCase.retry.error, message: expect.any(String) },
          retryAttempt: 1,
          maxRetries: 10,
        }),
      ]);
      expectTranscriptIsLastRequestPlus(path, fake.requests[3]?.body.messages, DONE);
      expectNoDuplicateTurns(path);
      expect(transcriptMessages(path).filter((message) => message.role === "assistant").length).toBe(3);
    });
  }
});

describe("faults: when retrying stops", () => {
  test("three 529s with CLEW_MAX_RETRIES=2: exit 1 with an API error result", async () => {
    const dir = writeWorkspace({ "notes.txt": "alpha\n" });
    const configDir = tempDirectory("clew-config-");
    const fake = (server = await startFakeAnthropic({ script: [overloaded(), overloaded(), overloaded(), reply().text("too late")] }));
    const run = await runClew(["-p", "say hi", "--output-format", "json"], {
      cwd: dir,
      baseURL: fake.url,
      configDir,
      env: { CLEW_MAX_RETRIES: "2" },
    });

    expect(fake.violations).toEqual([]);
    expect(run.code).toBe(1);
    expect(fake.requests.length).toBe(3);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: true,
      api_error_status: 529,
      terminal_reason: "api_error",
      num_turns: 1,
      permission_denials: [],
    });
    expect(result.result).toStartWith("API Error");
    expect(run.stdout.trim().split("\n").length).toBe(1);
    // Nothing the model never said is stored: the prompt is the whole conversation.
    const path = onlyTranscript(configDir);
    expect(withoutReminders(transcriptMessages(path))).toEqual([{ role: "user", content: [{ type: "text", text: "say hi" }] }]);
  });

  test("a 401 is not retried: exactly one request, exit 1", async () => {
    const dir = writeWorkspace({ "notes.txt": "alpha\n" });
    const configDir = tempDirectory("clew-config-");
    // A retry would be answered successfully, so retrying would turn this into exit 0.
    const fake = (server = await startFakeAnthropic({ script: [http(401), reply().text("should never be asked")] }));
    const run = await runClew(["-p", "say hi", "--output-format", "json"], { cwd: dir, baseURL: fake.url, configDir });

    expect(fake.violations).toEqual([]);
    expect(run.code).toBe(1);
    expect(fake.requests.length).toBe(1);
    expect(fake.remainingSteps()).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ type: "result", subtype: "success", is_error: true, api_error_status: 401 });
    expect(result.result).toStartWith("API Error");
  });
});
