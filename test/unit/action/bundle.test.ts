// The action as GitHub runs it: action.yml names node24 and the checked-in bundle, the bundle is
// exactly what scripts/build-action.ts makes from action/src today, every input action.yml
// declares is one the code reads (and the other way round), and the action's code type-checks
// against node's types alone (it runs on node, where no Bun API exists).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readInputs } from "../../../action/src/inputs.ts";

const ROOT = resolve(import.meta.dir, "../../..");

interface ActionYaml {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

const actionYaml = Bun.YAML.parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYaml;

describe("the action's bundle and metadata", () => {
  test("action.yml runs the checked-in bundle on node24", () => {
    expect(actionYaml.runs).toEqual({ using: "node24", main: "action/dist/index.js" });
    expect(existsSync(join(ROOT, actionYaml.runs.main))).toBe(true);
  });

  test("action/dist/index.js is byte-identical to a fresh build of action/src (rebuild: bun scripts/build-action.ts)", () => {
    const out = mkdtempSync(join(tmpdir(), "action-bundle-"));
    try {
      const build = Bun.spawnSync(["bun", join(ROOT, "scripts/build-action.ts"), join(out, "index.js")], { cwd: out, stdout: "pipe", stderr: "pipe" });
      expect({ code: build.exitCode, stderr: build.stderr.toString() }).toEqual({ code: 0, stderr: "" });
      const fresh = readFileSync(join(out, "index.js"), "utf8");
      const checkedIn = readFileSync(join(ROOT, "action/dist/index.js"), "utf8");
      expect(checkedIn === fresh).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test("the code reads exactly the inputs action.yml declares", () => {
    const asked = new Set<string>();
    readInputs((name) => {
      asked.add(name);
      return name === "prompt" ? "a task" : "";
    }, ROOT);
    expect([...asked].sort()).toEqual(Object.keys(actionYaml.inputs).sort());
    expect(Object.keys(actionYaml.outputs).sort()).toEqual(["cost-usd", "exit-code", "result", "session-id"]);
  });

  test("action/src type-checks with node's types only", () => {
    const check = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "--noEmit", "-p", join(ROOT, "action/tsconfig.json")], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    expect({ code: check.exitCode, output: check.stdout.toString() + check.stderr.toString() }).toEqual({ code: 0, output: "" });
  });
});
