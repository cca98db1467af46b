// The action's inputs as clew's command line, and how it reads clew's json stdout back: each
// input becomes its flag (paths absolute, inline JSON as given, one rule list per line), bad
// inputs are refused by name, and a result is found in an object, a verbose array or after noise.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clewArguments, InputError, promptStdin, readInputs } from "../../../action/src/inputs.ts";
import { failureMessage, parseResult, type RunOutcome } from "../../../action/src/run-clew.ts";
import { tempDirectory } from "../../helpers/clew-process.ts";

let workspace = "";

beforeAll(() => {
  workspace = tempDirectory("action-inputs-");
  mkdirSync(join(workspace, "pkg"));
  mkdirSync(join(workspace, "ci"));
  writeFileSync(join(workspace, "ci/task.md"), "Fix the failing test\n");
  writeFileSync(join(workspace, "ci/settings.json"), "{}");
  writeFileSync(join(workspace, "ci/mcp-a.json"), '{"mcpServers":{}}');
  writeFileSync(join(workspace, "ci/mcp-b.json"), '{"mcpServers":{}}');
});

afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const reader = (values: Record<string, string>) => (name: string) => values[name] ?? "";

function inputError(values: Record<string, string>): string {
  try {
    readInputs(reader(values), workspace);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error("readInputs accepted the inputs");
}

describe("action inputs", () => {
  test("every input maps to its flag; the prompt comes last, after --", () => {
    const inputs = readInputs(
      reader({
        prompt: "-v is not a flag here",
        model: "sonnet",
        "max-turns": "12",
        "max-budget-usd": "0.75",
        "allowed-tools": "Edit, Write\nBash(npm run test:*)\n",
        "disallowed-tools": "WebFetch",
        settings: "ci/settings.json",
        "mcp-config": "ci/mcp-a.json\nci/mcp-b.json",
        "working-directory": "pkg",
      }),
      workspace,
    );
    expect(clewArguments(inputs)).toEqual([
      "-p",
      "--output-format",
      "json",
      "--model=sonnet",
      "--max-turns=12",
      "--max-budget-usd=0.75",
      "--allowedTools=Edit, Write",
      "--allowedTools=Bash(npm run test:*)",
      "--disallowedTools=WebFetch",
      `--settings=${join(workspace, "ci/settings.json")}`,
      `--mcp-config=${join(workspace, "ci/mcp-a.json")}`,
      `--mcp-config=${join(workspace, "ci/mcp-b.json")}`,
      "--",
      "-v is not a flag here",
    ]);
    expect(inputs.workingDirectory).toBe(join(workspace, "pkg"));
    expect(promptStdin(inputs)).toBeUndefined();
  });

  test("inline JSON settings and MCP config pass as they are; a prompt file goes to stdin", () => {
    const mcp = '{"mcpServers": {"docs": {"command": "docs-server"}}}';
    const inputs = readInputs(reader({ "prompt-file": "ci/task.md", settings: '{"model": "haiku"}', "mcp-config": mcp }), workspace);
    expect(clewArguments(inputs)).toEqual(["-p", "--output-format", "json", '--settings={"model": "haiku"}', `--mcp-config=${mcp}`, "--"]);
    expect(promptStdin(inputs)?.toString()).toBe("Fix the failing test\n");
    expect(inputs.workingDirectory).toBe(workspace);
  });

  test("defaults: the placeholder release host, the built-in key, no clew-path", () => {
    const inputs = readInputs(reader({ prompt: "x" }), workspace);
    expect({ downloadUrl: inputs.downloadUrl, trustedKey: inputs.trustedKey, clewPath: inputs.clewPath }).toEqual({
      downloadUrl: "https://clew.invalid/releases/latest",
      trustedKey: undefined,
      clewPath: undefined,
    });
    expect(readInputs(reader({ prompt: "x", "clew-path": "clew" }), workspace).clewPath).toBe("clew");
    expect(readInputs(reader({ prompt: "x", "clew-path": "bin/clew" }), workspace).clewPath).toBe(join(workspace, "bin/clew"));
  });

  test("bad inputs are refused with the input's name and what to give instead", () => {
    expect(inputError({})).toBe("no prompt: set the prompt input (the task as text) or prompt-file (a file holding it)");
    expect(inputError({ prompt: "x", "max-turns": "0" })).toBe("input max-turns: '0' is not a positive whole number (e.g. max-turns: 10)");
    expect(inputError({ prompt: "x", "max-budget-usd": "free" })).toBe("input max-budget-usd: 'free' is not a positive number of US dollars (e.g. max-budget-usd: 0.50)");
    expect(inputError({ "prompt-file": "ci/missing.md" })).toBe(`input prompt-file: ${join(workspace, "ci/missing.md")} does not exist (relative paths start at the workspace, ${workspace})`);
    expect(inputError({ prompt: "x", settings: "ci" })).toBe(`input settings: ${join(workspace, "ci")} is not a file`);
    expect(inputError({ prompt: "x", "working-directory": "ci/task.md" })).toBe(`input working-directory: ${join(workspace, "ci/task.md")} is not a directory (relative paths start at the workspace, ${workspace})`);
  });
});

function outcome(stdout: string, exitCode: number, stderrTail = ""): RunOutcome {
  return { exitCode, result: parseResult(stdout), stdout, stderrTail };
}

describe("reading clew's json stdout", () => {
  const success = { type: "result" as const, subtype: "success", is_error: false, result: "done", session_id: "s1", total_cost_usd: 0.01 };
  const maxTurns = { type: "result" as const, subtype: "error_max_turns", is_error: true, errors: ["Reached maximum number of turns (3)"] };

  test("an object, the last result of a verbose array, or the last line after noise", () => {
    expect(parseResult(JSON.stringify(success))).toEqual(success);
    expect(parseResult(JSON.stringify([{ type: "system", subtype: "init" }, maxTurns, { type: "assistant" }]))).toEqual(maxTurns);
    expect(parseResult(`warning: something\n${JSON.stringify(success)}\n`)).toEqual(success);
    expect(parseResult("")).toBeUndefined();
    expect(parseResult("Error: Input must be provided")).toBeUndefined();
    expect(parseResult('{"type":"assistant"}')).toBeUndefined();
  });

  test("the failure message is the result's error, else clew's last stderr line", () => {
    expect(failureMessage(outcome(JSON.stringify(maxTurns), 1))).toBe("clew exited with 1 (error_max_turns): Reached maximum number of turns (3)");
    const apiError = { type: "result", subtype: "success", is_error: true, result: "API Error: 529 Overloaded" };
    expect(failureMessage(outcome(JSON.stringify(apiError), 1))).toBe("clew exited with 1 (success): API Error: 529 Overloaded");
    expect(failureMessage(outcome("", 1, "error: unknown option '--nope'\nRun clew --help for usage.\n"))).toBe(
      "clew exited with 1 and printed no json result: Run clew --help for usage.",
    );
    expect(failureMessage(outcome("", 143))).toBe("clew exited with 143 and printed no json result");
  });
});
