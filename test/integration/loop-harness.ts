// Runs the real loop with the real SDK client against the fake server, with tools supplied by
// the test. Only the model is fake; the wire, the SDK and the loop are the real ones.
import { z } from "zod";
import { toApiTool } from "../../src/app/tool-set.ts";
import { withMessageBreakpoints } from "../../src/context/cache-points.ts";
import type { AgentEvent, LoopOutcome } from "../../src/loop/events.ts";
import { ToolExecutor } from "../../src/loop/execute.ts";
import { runLoop, type LoopDeps, type LoopState } from "../../src/loop/loop.ts";
import { createStreamFn } from "../../src/model/client.ts";
import { createGate } from "../../src/permissions/gate.ts";
import { compileRules } from "../../src/permissions/rules.ts";
import { defineTool, type AnyTool, type ToolAccess } from "../../src/tools/types.ts";
import { startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { tempDir, toolSession } from "../helpers/tool-session.ts";

export interface LoopRun {
  outcome: LoopOutcome;
  events: AgentEvent[];
  state: LoopState;
  server: FakeServer;
}

export async function runScriptedLoop(
  script: ScriptStep[],
  tools: AnyTool[],
  options: { signal?: AbortSignal; maxTurns?: number } = {},
): Promise<LoopRun> {
  const server = await startFakeAnthropic({ script });
  try {
    const dir = tempDir("clew-loop-");
    const session = toolSession(dir);
    const executor = new ToolExecutor({
      tools,
      gate: createGate({
        rules: compileRules([]),
        context: { mode: "bypassPermissions", cwd: dir, workingDirs: [], homeDir: dir, realpath: (path) => path },
      }),
      session,
      toolTimeoutMs: 10_000,
      maxResultChars: 10_000,
    });
    const deps: LoopDeps = {
      stream: createStreamFn({
        apiKey: "sk-test",
        baseURL: server.url,
        maxRetries: 3,
        idleTimeoutMs: 5_000,
        requestTimeoutMs: 10_000,
        headers: {},
        sleep: async () => {},
      }),
      tools: {
        isReadOnly: (name) => executor.tool(name)?.access === "read",
        execute: (call, signal, emit) => executor.execute(call, signal, emit),
      },
      request: { model: "claude-test", maxTokens: 4096, system: [{ type: "text", text: "You are a test." }], tools: tools.map(toApiTool) },
      prepare: withMessageBreakpoints,
      limits: { maxTurns: options.maxTurns, maxOutputRecoveries: 3 },
      now: () => performance.now(),
    };
    const state: LoopState = { messages: [{ role: "user", content: [{ type: "text", text: "Go." }] }] };
    const events: AgentEvent[] = [];
    const outcome = await runLoop(state, deps, (event) => events.push(event), options.signal ?? new AbortController().signal);
    await session.shells.killAll();
    return { outcome, events, state, server };
  } finally {
    await server.close();
  }
}

/** A tool that records its calls and answers with a fixed text (or what `answer` returns). */
export function probeTool(
  name: string,
  access: ToolAccess,
  answer: (input: { tag?: string }, signal: AbortSignal) => Promise<string> = async (input) => `ok ${input.tag ?? ""}`.trim(),
  calls: string[] = [],
): AnyTool {
  return defineTool({
    name,
    description: `Test tool ${name}.`,
    input: z.object({ tag: z.string().optional() }),
    access,
    subject: (input) => input.tag ?? "",
    run: async (input, ctx) => {
      calls.push(`${name}:${input.tag ?? ""}`);
      return { content: await answer(input, ctx.signal) };
    },
  });
}
