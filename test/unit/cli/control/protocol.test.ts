// The control channel (clew's requests to the host and their answers), initialize's reading of
// what the host asks for, and the mapping of a permission prompt to can_use_tool and back.
import { describe, expect, test } from "bun:test";
import { ControlChannel, ControlRequestError, type Frame } from "../../../../src/cli/control/channel.ts";
import { patchedFlagSettings, sdkCheckpointPatch } from "../../../../src/cli/control/flag-settings.ts";
import { parseHookCallbacks, withHookCallbacks } from "../../../../src/cli/control/hook-relay.ts";
import { initializeResponse, parseInitialize } from "../../../../src/cli/control/initialize.ts";
import { canUseToolRequest, controlApprovalPort, ruleValue } from "../../../../src/cli/control/permission-port.ts";
import type { PermissionEvaluation, PermissionRequest } from "../../../../src/permissions/types.ts";

function channel(): { channel: ControlChannel; frames: Frame[] } {
  const frames: Frame[] = [];
  return { channel: new ControlChannel((frame) => frames.push(frame)), frames };
}

function requestIdOf(frame: Frame | undefined): string {
  return (frame as unknown as { request_id: string }).request_id;
}

describe("ControlChannel", () => {
  test("a request is written with a fresh id and resolves with the matching success answer", async () => {
    const { channel: control, frames } = channel();
    const pending = control.request({ subtype: "mcp_message", server_name: "calc", message: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(frames).toEqual([{ type: "control_request", request_id: expect.any(String), request: { subtype: "mcp_message", server_name: "calc", message: { jsonrpc: "2.0", id: 1, method: "tools/list" } } }]);
    expect(control.settle({ subtype: "success", request_id: "someone-else", response: {} })).toBe(false);
    expect(control.settle({ subtype: "success", request_id: requestIdOf(frames[0]), response: { mcp_response: { ok: 1 } } })).toBe(true);
    expect(await pending).toEqual({ mcp_response: { ok: 1 } });
    // Answered once: a second answer with the same id matches nothing.
    expect(control.settle({ subtype: "success", request_id: requestIdOf(frames[0]) })).toBe(false);
  });

  test("an error answer rejects with the host's message; a cancelled request tells the host", async () => {
    const { channel: control, frames } = channel();
    const failing = control.request({ subtype: "can_use_tool" });
    control.settle({ subtype: "error", request_id: requestIdOf(frames[0]), error: "callback threw" });
    await expect(failing).rejects.toThrow("the caller answered can_use_tool with an error: callback threw");

    const abort = new AbortController();
    const cancelled = control.request({ subtype: "can_use_tool" }, abort.signal);
    abort.abort();
    await expect(cancelled).rejects.toBeInstanceOf(ControlRequestError);
    expect(frames.at(-1)).toEqual({ type: "control_cancel_request", request_id: requestIdOf(frames[1]) });
  });

  test("closing fails what waits and every later request; responses are written in Claude Code's shape", async () => {
    const { channel: control, frames } = channel();
    const waiting = control.request({ subtype: "can_use_tool" });
    control.close("standard input ended");
    await expect(waiting).rejects.toThrow("standard input ended");
    await expect(control.request({ subtype: "mcp_message" })).rejects.toThrow("standard input ended");
    control.succeed("r1", { mode: "plan" });
    control.fail("r2", "unsupported");
    expect(frames.slice(-2)).toEqual([
      { type: "control_response", response: { subtype: "success", request_id: "r1", response: { mode: "plan" } } },
      { type: "control_response", response: { subtype: "error", request_id: "r2", error: "unsupported" } },
    ]);
  });
});

describe("parseInitialize", () => {
  test("the SDK's default request: an empty system prompt keeps clew's own, nothing else is asked", () => {
    expect(parseInitialize({ subtype: "initialize", systemPrompt: [""] })).toEqual({ ok: true, config: { sdkMcpServers: [] }, notices: [] });
  });

  test("system prompt parts, an append, agents and in-process servers with their manifests", () => {
    const parsed = parseInitialize({
      subtype: "initialize",
      systemPrompt: ["You are a reviewer.", "Be brief."],
      appendSystemPrompt: "extra",
      agents: { rev: { description: "Reviews", prompt: "Review." } },
      sdkMcpServers: ["calc"],
      sdkMcpServerManifests: { calc: { initializeResult: {} } },
      promptSuggestions: true,
    });
    expect(parsed).toEqual({
      ok: true,
      config: { systemPrompt: "You are a reviewer.\n\nBe brief.", appendSystemPrompt: "extra", agents: { rev: { description: "Reviews", prompt: "Review." } }, sdkMcpServers: ["calc"] },
      notices: [],
    });
  });

  test("managed settings are refused by name, never dropped; a JSON schema and hook callbacks are taken", () => {
    const parsed = parseInitialize({ subtype: "initialize", jsonSchema: { type: "object" }, managedSettings: { a: 1 } });
    expect(parsed).toEqual({ ok: false, error: "initialize.managedSettings: managed settings sent in initialize are not supported by clew" });
    expect(parseInitialize({ subtype: "initialize", jsonSchema: { type: "object" } })).toEqual({ ok: true, config: { sdkMcpServers: [], jsonSchema: { type: "object" } }, notices: [] });
    expect(parseInitialize({ subtype: "initialize", jsonSchema: ["a"] })).toEqual({ ok: false, error: "initialize.jsonSchema must be a JSON Schema object" });
    const hooks = { PreToolUse: [{ hookCallbackIds: ["hook_0"] }] };
    expect(parseInitialize({ subtype: "initialize", hooks })).toEqual({ ok: true, config: { sdkMcpServers: [], hooks }, notices: [] });
  });

  test("a field clew does not know is named in a notice; a malformed one is an error", () => {
    expect(parseInitialize({ subtype: "initialize", planModeInstructions: "plan well" })).toEqual({ ok: true, config: { sdkMcpServers: [] }, notices: ["initialize.planModeInstructions is not supported by clew and has no effect"] });
    expect(parseInitialize({ subtype: "initialize", systemPrompt: 3 })).toEqual({ ok: false, error: "initialize.systemPrompt must be a string or an array of strings" });
    expect(parseInitialize({ subtype: "initialize", sdkMcpServers: "calc" })).toEqual({ ok: false, error: "initialize.sdkMcpServers must be an array of server names" });
    expect(parseInitialize({ subtype: "initialize", agents: [] })).toEqual({ ok: false, error: "initialize.agents must be an object of agent name to definition" });
  });

  test("the answer carries what the SDK reads: commands, agents, output styles, models, account", () => {
    const response = initializeResponse({
      commands: [{ name: "review", description: "Review the diff" }],
      agents: [{ name: "Explore", description: "Reads code" }],
      models: [{ alias: "sonnet", description: "Fast" }],
      apiKeySource: "ANTHROPIC_API_KEY",
      outputStyle: "Explanatory",
      outputStyles: ["default", "Explanatory"],
    });
    expect(response).toEqual({
      commands: [{ name: "review", description: "Review the diff", argumentHint: "" }],
      agents: [{ name: "Explore", description: "Reads code" }],
      output_style: "Explanatory",
      available_output_styles: ["default", "Explanatory"],
      models: [{ value: "sonnet", displayName: "sonnet", description: "Fast" }],
      account: { apiKeySource: "ANTHROPIC_API_KEY", apiProvider: "firstParty" },
      pid: process.pid,
    });
  });
});

describe("hook callbacks as http hooks of the session", () => {
  test("matchers become one http hook per callback id, the timeout kept, after the --settings value's own hooks", () => {
    const parsed = parseHookCallbacks({ PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_0", "hook_1"], timeout: 5 }], Stop: [{ hookCallbackIds: ["hook_2"] }] });
    if (!parsed.ok) throw new Error(parsed.error);
    const flag = JSON.stringify({ model: "sonnet", hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "true" }] }] } });
    const joined = patchedFlagSettings(flag, [(settings) => withHookCallbacks(settings, parsed.events, (id) => `http://127.0.0.1:1/t/${id}`)]);
    expect(JSON.parse(joined ?? "")).toEqual({
      model: "sonnet",
      hooks: {
        PreToolUse: [
          { matcher: "Write", hooks: [{ type: "command", command: "true" }] },
          { matcher: "Bash", hooks: [{ type: "http", url: "http://127.0.0.1:1/t/hook_0", timeout: 5 }, { type: "http", url: "http://127.0.0.1:1/t/hook_1", timeout: 5 }] },
        ],
        Stop: [{ hooks: [{ type: "http", url: "http://127.0.0.1:1/t/hook_2" }] }],
      },
    });
  });

  test("malformed callbacks and a --settings value that cannot take them are errors naming the field", () => {
    expect(parseHookCallbacks([])).toEqual({ ok: false, error: "initialize.hooks must be an object of hook event name to matchers" });
    expect(parseHookCallbacks({ PreToolUse: [{ matcher: "Bash" }] })).toEqual({ ok: false, error: "initialize.hooks.PreToolUse[0] must have hookCallbackIds, an array of callback ids" });
    expect(parseHookCallbacks({ Stop: [{ hookCallbackIds: ["h"], timeout: -1 }] })).toEqual({ ok: false, error: "initialize.hooks.Stop[0].timeout must be a positive number of seconds" });
    expect(() => patchedFlagSettings("/nonexistent/settings.json", [(settings) => settings])).toThrow("cannot be joined with --settings /nonexistent/settings.json: ");
    expect(patchedFlagSettings("/nonexistent/settings.json", [])).toBe("/nonexistent/settings.json");
  });
});

describe("file checkpoints for an Agent SDK host", () => {
  test("off unless the host asks (enableFileCheckpointing) or its own --settings decides; other callers keep the default", () => {
    const patch = sdkCheckpointPatch({ CLAUDE_CODE_ENTRYPOINT: "sdk-ts" });
    expect(patch?.({ model: "x" })).toEqual({ model: "x", fileCheckpointingEnabled: false });
    expect(patch?.({ fileCheckpointingEnabled: true })).toEqual({ fileCheckpointingEnabled: true });
    expect(sdkCheckpointPatch({ CLAUDE_CODE_ENTRYPOINT: "sdk-ts", CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "true" })).toBeUndefined();
    expect(sdkCheckpointPatch({ CLAUDE_CODE_ENTRYPOINT: "cli" })).toBeUndefined();
    expect(sdkCheckpointPatch({})).toBeUndefined();
  });
});

describe("permission prompts over the control channel", () => {
  const bash: PermissionRequest = { toolName: "Bash", access: "exec", subject: "rm -rf build", input: { command: "rm -rf build" }, toolUseId: "toolu_1" };
  const ask: PermissionEvaluation = { behavior: "ask", reason: "Bash(rm -rf build) needs approval.", suggestions: ["Bash(rm -rf:*)"] };

  test("can_use_tool carries the tool, its input, the tool_use id, the reason and the suggested rules", () => {
    expect(canUseToolRequest(bash, ask)).toEqual({
      subtype: "can_use_tool",
      tool_name: "Bash",
      display_name: "Bash",
      input: { command: "rm -rf build" },
      tool_use_id: "toolu_1",
      description: "Bash(rm -rf build) needs approval.",
      decision_reason: "Bash(rm -rf build) needs approval.",
      decision_reason_type: "mode",
      permission_suggestions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "rm -rf:*" }], behavior: "allow", destination: "session" }],
    });
    const write: PermissionRequest = { toolName: "Write", access: "write", subject: "/etc/hosts", input: { file_path: "/etc/hosts", content: "" }, toolUseId: "toolu_2", agent: "Explore" };
    expect(canUseToolRequest(write, { behavior: "ask", reason: "outside" })).toMatchObject({ blocked_path: "/etc/hosts", agent_id: "Explore", display_name: "Explore: Write", permission_suggestions: [] });
    expect(ruleValue("Read")).toEqual({ toolName: "Read" });
  });

  async function answerWith(response: Record<string, unknown>) {
    const { channel: control, frames } = channel();
    const events: string[] = [];
    const port = controlApprovalPort(control, {
      asking: () => events.push("asking"),
      answered: () => events.push("answered"),
      interrupt: () => events.push("interrupt"),
      notice: (message) => events.push(`notice: ${message}`),
    });
    const answer = port(bash, ask);
    control.settle({ subtype: "success", request_id: requestIdOf(frames[0]), response });
    return { answer: await answer, events };
  }

  test("allow with the input unchanged and a session rule: allowed, the rule kept", async () => {
    const { answer, events } = await answerWith({ behavior: "allow", updatedInput: { command: "rm -rf build" }, updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "rm -rf:*" }], behavior: "allow", destination: "session" }], toolUseID: "toolu_1" });
    expect(answer).toEqual({ allow: true, remember: ["Bash(rm -rf:*)"] });
    expect(events).toEqual(["asking", "answered"]);
  });

  test("deny with interrupt: denied with the host's message, and the turn is stopped", async () => {
    const { answer, events } = await answerWith({ behavior: "deny", message: "Not today.", interrupt: true });
    expect(answer).toEqual({ allow: false, reason: "Not today." });
    expect(events).toEqual(["asking", "answered", "interrupt"]);
  });

  test("a changed input is refused rather than run as the model wrote it; other updates are named", async () => {
    const changed = await answerWith({ behavior: "allow", updatedInput: { command: "rm -rf build/tmp" } });
    expect(changed.answer.allow).toBe(false);
    expect(changed.answer.reason).toContain("changed input, which clew cannot apply yet");
    const persisted = await answerWith({ behavior: "allow", updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }, { type: "addRules", rules: [{ toolName: "Bash" }], behavior: "allow", destination: "localSettings" }] });
    expect(persisted.answer).toEqual({ allow: true, remember: ["Bash"] });
    expect(persisted.events).toEqual([
      "asking",
      "answered",
      'notice: the host\'s permission update "setMode" is not supported by clew and was not applied',
      "notice: allow rule(s) Bash are kept for this session only (clew does not write localSettings from a permission answer)",
    ]);
  });

  test("an answer that is not a decision, or no answer at all, denies the call", async () => {
    const odd = await answerWith({ behavior: "maybe" });
    expect(odd.answer.allow).toBe(false);
    expect(odd.answer.reason).toContain('was not {"behavior": "allow" | "deny", …}');
    const { channel: control } = channel();
    control.close("standard input ended");
    const port = controlApprovalPort(control, { asking: () => {}, answered: () => {}, interrupt: () => {}, notice: () => {} });
    expect(await port(bash, ask)).toEqual({ allow: false, reason: "The host was asked for permission and did not answer (standard input ended)." });
  });
});
