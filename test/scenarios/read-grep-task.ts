// A 30-step read/grep/edit task over a generated project of source files of varied length
// (20–120 lines): 29 tool round-trips cycling Read → Grep → Edit, results accumulating in
// history, then a final answer. Used by a scenario test and by the benchmark, so both measure
// the same work.
import { join } from "node:path";
import { reply, type ScriptStep } from "../fake-anthropic/index.ts";
import { writeWorkspace } from "./workspaces.ts";

export const READ_GREP_STEPS = 30;
export const READ_GREP_ANSWER = "Every module now types its first handler's result; none of them logs secrets.";
const MODULES = 10;

function moduleSource(index: number): string {
  const functions = 3 + ((index * 7) % 17); // 3–19 functions: 20–120 lines
  const lines = [`// Module ${index}: request handling for area ${index}.`, `import { log } from "./log.ts";`, ""];
  for (let fn = 0; fn < functions; fn++) {
    lines.push(`export function handler${index}_${fn}(input: string) {`);
    lines.push(`  log("handler ${index}.${fn} called with " + input.length + " characters");`);
    lines.push(`  const trimmed = input.trim().toLowerCase();`);
    lines.push(`  return trimmed.length > ${fn} ? trimmed.slice(0, ${fn + 10}) : trimmed;`);
    lines.push("}", "");
  }
  return lines.join("\n");
}

export function readGrepWorkspace(): string {
  const files: Record<string, string> = { "src/log.ts": "export function log(message: string): void {\n  void message;\n}\n" };
  for (let i = 0; i < MODULES; i++) files[`src/module${i}.ts`] = moduleSource(i);
  return writeWorkspace(files);
}

export function readGrepScript(dir: string): ScriptStep[] {
  const steps: ScriptStep[] = [];
  for (let i = 0; i < READ_GREP_STEPS - 1; i++) {
    const module = Math.floor(i / 3) % MODULES;
    const file = join(dir, `src/module${module}.ts`);
    switch (i % 3) {
      case 0:
        steps.push(reply().text(`Reading module ${module}.`).toolUse("Read", { file_path: file }));
        break;
      case 1:
        steps.push(reply().toolUse("Grep", { pattern: `handler${module}_1`, path: join(dir, "src"), output_mode: "content", "-n": true }));
        break;
      default:
        steps.push(
          reply().toolUse("Edit", {
            file_path: file,
            old_string: `export function handler${module}_0(input: string) {`,
            new_string: `export function handler${module}_0(input: string): string {`,
          }),
        );
    }
  }
  steps.push(reply().text(READ_GREP_ANSWER));
  return steps;
}
