// applyDeferral wired the way the session wires it, driving the real loop, executor, SDK client and
// wire format against the fake API (which answers what the real API refuses with a 400): the
// deferred tools go out flagged, ToolSearch's tool_reference passes the executor untouched, the
// loaded tool runs, and tools[] and the cached prefix never change between requests.
import { describe, expect, test } from "bun:test";
import { toApiTool } from "../../../../src/app/tool-set.ts";
import { withMessageBreakpoints } from "../../../../src/context/cache-points.ts";
import { ToolExecutor } from "../../../../src/loop/execute.ts";
import { runLoop, type LoopDeps, type LoopState } from "../../../../src/loop/loop.ts";
import { applyDeferral, withBetaHeader } from "../../../../src/mcp/deferral/apply.ts";
import { createStreamFn } from "../../../../src/model/client.ts";
import type { ApiTool } from "../../../../src/model/types.ts";
import { createGate } from "../../../../src/permissions/gate.ts";
import { compileRules } from "../../../../src/permissions/rules.ts";
import { toolSearchTool } from "../../../../src/tools/tool-search.ts";
import { systemNote } from "../../../../src/util/system-note.ts";
import { canonicalJson, deferredToolNames, lastUserReminders, reply, startFakeAnthropic, toolReferences, toolResults } from "../../../fake-anthropic/index.ts";
import { tempDir, toolSession } from "../../../helpers/tool-session.ts";
import { builtin, manyTools } from "./tools.ts";

describe("deferral through the loop and the wire", () => {
  test("ToolSearch loads one of 200 deferred tools, which then runs; every request is valid and keeps its prefix", async () => {
    const mcp = manyTools("fleet", 200);
    const applied = applyDeferral({
      tools: [builtin("Read"), ...mcp],
      toolSearchTool,
      toApiTool,
      setting: undefined,
      windowTokens: 200_000,
      toolSearchDenied: false,
      betasDisabled: false,
    });
    expect(applied.plan.enabled).toBe(true);
    const server = await startFakeAnthropic({
      rejectInvalid: true,
      script: [
        reply().toolUse("ToolSearch", { query: "select:mcp__fleet__tool_42" }),
        reply().toolUse("mcp__fleet__tool_42", { text: "hello" }),
        reply().text("done"),
      ],
    });
    try {
      const dir = tempDir("clew-deferral-");
      const session = toolSession(dir, { toolSearch: applied.toolSearch });
      const executor = new ToolExecutor({
        tools: applied.tools,
        gate: createGate({ rules: compileRules([]), context: { mode: "bypassPermissions", cwd: dir, workingDirs: [], homeDir: dir, realpath: (path) => path } }),
        session,
        toolTimeoutMs: 10_000,
        maxResultChars: 10_000,
      });
      const deps: LoopDeps = {
        stream: createStreamFn({
          apiKey: "sk-test",
          baseURL: server.url,
          maxRetries: 0,
          idleTimeoutMs: 5_000,
          requestTimeoutMs: 10_000,
          headers: withBetaHeader({}, applied.betas),
        }),
        tools: { isReadOnly: (name) => executor.tool(name)?.access === "read", execute: (call, signal, emit) => executor.execute(call, signal, emit) },
        request: { model: "claude-test", maxTokens: 4096, system: [{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }], tools: applied.apiTools as ApiTool[] },
        prepare: (messages) => withMessageBreakpoints(applied.prepare(messages)),
        limits: { maxTurns: 10, maxOutputRecoveries: 3 },
        now: () => performance.now(),
      };
      const state: LoopState = { messages: [{ role: "user", content: [{ type: "text", text: "Go." }, { type: "text", text: systemNote(applied.reminder ?? "") }] }] };
      const outcome = await runLoop(state, deps, () => {}, new AbortController().signal);
      await session.shells.killAll();

      expect(server.violations).toEqual([]);
      expect(outcome).toMatchObject({ reason: "completed" });
      const [first, second, third] = server.requests;
      if (!first || !second || !third) throw new Error("three requests expected");
      expect(server.requests).toHaveLength(3);
      expect(first.headers["anthropic-beta"]).toBe("advanced-tool-use-2025-11-20");
      expect(deferredToolNames(first)).toEqual(mcp.map((tool) => tool.name));
      expect(lastUserReminders(first)[0]).toContain("\nmcp__fleet__tool_199\n");
      expect(toolReferences(second)).toEqual(["mcp__fleet__tool_42"]);
      expect(toolResults(third).map((result) => result.text)).toEqual(["tool_42 ran"]);
      expect(canonicalJson(second.body.tools)).toBe(canonicalJson(first.body.tools));
      expect(canonicalJson(third.body.tools)).toBe(canonicalJson(first.body.tools));
      // Each request reads what the one before cached (tools, system and the earlier messages).
      for (const [i, request] of [second, third].entries()) {
        const before = server.requests[i]?.cache;
        expect(request.cache?.cacheReadInputTokens).toBeGreaterThanOrEqual((before?.cacheReadInputTokens ?? 0) + (before?.cacheCreationInputTokens ?? 0));
      }
      // Loading the tool made the second request bigger by its definition, not by 200 of them.
      const growth = (second.cache?.totalTokens ?? 0) - (first.cache?.totalTokens ?? 0);
      expect(growth).toBeLessThan(1_000);
    } finally {
      await server.close();
    }
  });
});
