// The command lines the Agent SDK (0.3.333) starts Claude Code with, as its process transport
// builds them (`--flag=value` forms included), parse into a headless stream-json session; the
// flags it sends for options clew lacks are refused by name.
import { describe, expect, test } from "bun:test";
import { parseArgs } from "../../../../src/cli/args.ts";
import { runPrint } from "../../../../src/cli/print.ts";
import { readEnvironment } from "../../../../src/settings/paths.ts";

const BASE = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];

describe("the Agent SDK's command lines", () => {
  test("no -p: stream-json input is headless by itself", () => {
    const options = parseArgs(BASE);
    expect({ print: options.print, input: options.inputFormat, output: options.outputFormat, verbose: options.verbose }).toEqual({ print: true, input: "stream-json", output: "stream-json", verbose: true });
  });

  test("canUseTool, resume, limits and tool lists in their = forms", () => {
    const options = parseArgs([
      ...BASE, "--max-turns=3", "--max-budget-usd=0.5", "--model=sonnet", "--permission-prompt-tool=stdio", "--resume=5f0c1a2e-0000-4000-8000-000000000001",
      "--allowedTools=Read,Bash(git status:*)", "--disallowedTools=WebSearch", "--tools=default", "--setting-sources=user,project",
      "--permission-mode=default", "--add-dir=/tmp/extra", "--include-hook-events", "--debug-file=/tmp/sdk-debug.log",
    ]);
    expect(options).toMatchObject({
      maxTurns: 3, maxBudgetUsd: 0.5, model: "sonnet", permissionPromptTool: "stdio", resume: "5f0c1a2e-0000-4000-8000-000000000001",
      allowedTools: ["Read", "Bash(git status:*)"], disallowedTools: ["WebSearch"], tools: ["default"], settingSources: ["user", "project"],
      permissionMode: "default", addDirs: ["/tmp/extra"],
    });
    expect(parseArgs([...BASE, "--setting-sources="]).settingSources).toEqual([]);
  });

  test("bypass: started in it, or allowed to be switched to later", () => {
    expect(parseArgs([...BASE, "--permission-mode=bypassPermissions", "--allow-dangerously-skip-permissions"])).toMatchObject({ permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true });
    expect(parseArgs([...BASE, "--replay-user-messages"]).replayUserMessages).toBe(true);
    expect(parseArgs([...BASE, "--fallback-model=haiku,sonnet"]).fallbackModel).toBe("haiku,sonnet");
    expect(parseArgs([...BASE, '--json-schema={"type":"object"}']).jsonSchema).toBe('{"type":"object"}');
  });

  test("options clew does not have are refused by the flag's name", () => {
    for (const flag of ["--thinking=adaptive", "--max-thinking-tokens=1000", "--await-initialize", "--betas=x"]) {
      const name = flag.split("=")[0];
      expect(() => parseArgs([...BASE, flag])).toThrow(`error: ${name} is a Claude Code feature that clew does not support.`);
    }
  });
});

describe("print mode's checks before a stream-json session starts", () => {
  const io = { write: () => {}, writeError: () => {}, stdoutIsTTY: false, readStdin: async () => "", onSignal: () => {} };
  const env = readEnvironment({ PATH: "/usr/bin:/bin", HOME: "/nonexistent", ANTHROPIC_API_KEY: "sk-test" }, "/tmp");

  test("stream-json input needs stream-json output and takes no prompt argument; a prompt tool other than stdio is refused", async () => {
    await expect(runPrint(parseArgs(["-p", "--input-format", "stream-json", "--output-format", "json"]), env, "0.0.0-test", io)).rejects.toThrow("Error: --input-format=stream-json requires output-format=stream-json.");
    await expect(runPrint(parseArgs(["-p", "hi", ...BASE]), env, "0.0.0-test", io)).rejects.toThrow("error: a prompt argument with --input-format stream-json is not supported: the prompts of a stream-json session arrive on standard input.");
    await expect(runPrint(parseArgs([...BASE, "--permission-prompt-tool", "mcp__approver__ask"]), env, "0.0.0-test", io)).rejects.toThrow("error: --permission-prompt-tool mcp__approver__ask is not supported: clew asks permission only over the control protocol.");
    await expect(runPrint(parseArgs(["-p", "hi", "--permission-prompt-tool", "stdio"]), env, "0.0.0-test", io)).rejects.toThrow("error: --permission-prompt-tool stdio needs --input-format stream-json and --output-format stream-json");
  });
});
