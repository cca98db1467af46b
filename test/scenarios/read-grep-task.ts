// A 30-step read/grep task over a generated project: 29 tool round-trips (Read and Grep
// alternating, results accumulating in history) and a final answer. Used by a scenario test
// and by the benchmark, so both measure the same work.
import { join } from "node:path";
import { reply, type ScriptStep } from "../fake-anthropic/index.ts";
import { writeWorkspace } from "./workspaces.ts";

export const READ_GREP_STEPS = 30;
export const READ_GREP_ANSWER = "Every module exports exactly one handler; none of them logs secrets.";

function moduleSource(index: number): string {
  const lines = [`// Module ${index}: request handling for area ${index}.`, `import { log } from "./log.ts";`, ""];
  for (let fn = 0; fn < 20; fn++) {
    lines.push(`export function handler${index}_${fn}(input: string): string {`);
    lines.push(`  log("handler ${index}.${fn} called with " + input.length + " characters");`);
    lines.push(`  const trimmed = input.trim().toLowerCase();`);
    lines.push(`  return trimmed.length > ${fn} ? trimmed.slice(0, ${fn + 10}) : trimmed;`);
    lines.push("}", "");
  }
  return lines.join("\n");
}

export function readGrepWorkspace(): string {
  const files: Record<string, string> = { "src/log.ts": "export function log(message: string): void {\n  void message;\n}\n" };
  for (let i = 0; i < 15; i++) files[`src/module${i}.ts`] = moduleSource(i);
  return writeWorkspace(files);
}

export function readGrepScript(dir: string): ScriptStep[] {
  const steps: ScriptStep[] = [];
  for (let i = 0; i < READ_GREP_STEPS - 1; i++) {
    const module = Math.floor(i / 2) % 15;
    steps.push(
      i % 2 === 0
        ? reply().text(`Reading module ${module}.`).toolUse("Read", { file_path: join(dir, `src/module${module}.ts`) })
        : reply().toolUse("Grep", { pattern: `handler${module}_1\\d`, path: join(dir, "src"), output_mode: "content", "-n": true }),
    );
  }
  steps.push(reply().text(READ_GREP_ANSWER));
  return steps;
}
