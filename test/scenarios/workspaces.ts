// Starting files for scenarios, written into a fresh temp directory per run. Kept in code (not
// as files under test/) so the repository's own `bun test` never picks up their test files.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { reply, toolResults, type ScriptStep } from "../fake-anthropic/index.ts";
import { tempDirectory } from "../helpers/clew-process.ts";

export const BUGGY_MATH = `export function add(a: number, b: number): number {
  return a - b;
}

export function multiply(a: number, b: number): number {
  return a * b;
}
`;

const MATH_TEST = `import { expect, test } from "bun:test";
import { add, multiply } from "../src/math.ts";

test("add", () => {
  expect(add(2, 3)).toBe(5);
});

test("multiply", () => {
  expect(multiply(2, 3)).toBe(6);
});
`;

export function writeWorkspace(files: Record<string, string>): string {
  const dir = tempDirectory("clew-scenario-");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

export function failingTestWorkspace(): string {
  return writeWorkspace({ "src/math.ts": BUGGY_MATH, "test/math.test.ts": MATH_TEST, "package.json": '{ "name": "math" }\n' });
}

export const DONE = "Fixed: add() subtracted instead of adding; both tests pass now.";

export function fixScript(dir: string): ScriptStep[] {
  const mathFile = join(dir, "src/math.ts");
  return [
    reply().text("I'll find the function under test.").toolUse("Grep", { pattern: "export function add", path: join(dir, "src"), output_mode: "files_with_matches" }),
    (request) =>
      toolResults(request)[0]?.text.includes(mathFile)
        ? reply().toolUse("Read", { file_path: mathFile })
        : reply().text("Grep did not find the file."),
    reply().text("The bug is the minus sign.").toolUse("Edit", { file_path: mathFile, old_string: "return a - b;", new_string: "return a + b;" }),
    reply().toolUse("Bash", { command: "bun test 2>&1", description: "Run the test suite" }),
    (request) => {
      const output = toolResults(request)[0]?.text ?? "";
      return reply().text(/2 pass/.test(output) && /0 fail/.test(output) ? DONE : `Tests still fail:\n${output}`);
    },
  ];
}

