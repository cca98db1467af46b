import { describe, expect, test } from "bun:test";
import { hookInput } from "../../../src/hooks/inputs.ts";

const common = { session_id: "s", transcript_path: "/t/s.jsonl", cwd: "/p", permission_mode: "default" as const, prompt_id: undefined };

describe("hook input constructors", () => {
  test("common fields first, then the event name, then the event's fields; undefined dropped", () => {
    const input = hookInput("SessionStart", common, { source: "compact", model: undefined });
    expect(Object.keys(input)).toEqual(["session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name", "source"]);
    expect(input).toEqual({ session_id: "s", transcript_path: "/t/s.jsonl", cwd: "/p", permission_mode: "default", hook_event_name: "SessionStart", source: "compact" });
  });

  test("PostToolUseFailure errors past 10,000 characters are cut in the middle", () => {
    const error = `Exit code 1\n${"e".repeat(20_000)}\nlast line`;
    const input = hookInput("PostToolUseFailure", common, { tool_name: "Bash", tool_input: { command: "make" }, tool_use_id: "t", error });
    expect(input.error.length).toBeLessThan(10_200);
    expect(input.error).toStartWith("Exit code 1\n");
    expect(input.error).toEndWith("last line");
  });

  test("subagent events carry the subagent's id and type", () => {
    expect(hookInput("SubagentStart", common, { agent_id: "a-1", agent_type: "Explore" })).toMatchObject({ hook_event_name: "SubagentStart", agent_id: "a-1", agent_type: "Explore" });
  });
});
