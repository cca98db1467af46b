// The GitHub Action (action.yml, action/src) run by @github/local-action — the real toolkit's
// stand-in that reads action.yml, feeds INPUT_* from a dotenv file and records outputs, failures
// and the job summary — against the fake Anthropic API and a release made by scripts/release.ts,
// served over http://127.0.0.1. A matrix of two jobs, the tool cache, tampered and foreign-signed
// releases, clew-path, an error result and a bad input.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { messagesOf, reply, startFakeAnthropic, textOf, toolNames, toolResults, type FakeServer, type RecordedRequest, type Step } from "../fake-anthropic/index.ts";
import { tempDirectory } from "../helpers/clew-process.ts";
import { runGit } from "../helpers/git-repos.ts";
import { releaseWithScript, sha256File, throwawayKey, writeRelease, type ReleaseKey } from "../helpers/release-fixture.ts";
import { releaseFileName, type Platform } from "../../src/update/manifest.ts";
import { machineFacts, platformFor } from "../../src/update/platform.ts";

const ROOT = resolve(import.meta.dir, "../..");
const ACTION_PACKAGE = join(ROOT, "action");
const LOCAL_ACTION = join(ACTION_PACKAGE, "node_modules/@github/local-action/bin/local-action.js");
const platform = platformFor(machineFacts()) as Platform;
const VERSION = "1.2.3";

let root = "";
let key: ReleaseKey;
let keyFile = "";
let binary = "";
let workspace = "";
let fake: FakeServer;
let releases: ReturnType<typeof Bun.serve>;
/** Paths the release server was asked for, in order. */
const served: string[] = [];

/** The first user message's text (reminders left out): which job (or case) a request belongs to. */
function taskOf(request: RecordedRequest): string {
  const blocks = messagesOf(request)[0]?.content ?? [];
  return textOf(blocks.filter((block) => !String(block.text ?? "").startsWith("<system-reminder>"))).trim();
}

/** Answers every case from what the request carries, so concurrent jobs cannot take each other's steps. */
function route(request: RecordedRequest): Step {
  const task = taskOf(request);
  const results = toolResults(request);
  const notes = /Write notes for package (\w+)/.exec(task);
  if (notes) {
    const name = notes[1] as string;
    if (results.length === 0) return reply().toolUse("Write", { file_path: join(workspace, "packages", name, "NOTES.md"), content: `notes for ${name}\n` });
    return reply().text(`${name}: ${results[0]?.isError ? "write refused" : "wrote NOTES.md"}`);
  }
  if (task.includes("Keep looking around")) return reply().toolUse("Bash", { command: "pwd", description: "Print the working directory" });
  return reply().text(`answered: ${task}`);
}

beforeAll(async () => {
  if (!existsSync(LOCAL_ACTION)) {
    // A fresh clone: .ci/run installs the action's packages; a hand run of this file does it here.
    const install = Bun.spawnSync(["bun", "install", "--frozen-lockfile"], { cwd: ACTION_PACKAGE, stdout: "pipe", stderr: "pipe" });
    if (install.exitCode !== 0) throw new Error(`bun install in action/ failed: ${install.stderr.toString()}`);
  }
  root = tempDirectory("clew-action-");
  key = throwawayKey();
  keyFile = join(root, "release.pem");
  writeFileSync(keyFile, key.publicPem);
  const folder = join(root, "releases");
  binary = releaseWithScript(join(folder, "good"), VERSION, key, platform);
  writeRelease(join(folder, "tampered"), {
    version: VERSION,
    files: { [platform]: binary },
    key,
    tamper: (dir) => {
      const file = join(dir, releaseFileName(platform));
      const bytes = readFileSync(file);
      bytes[4096] = (bytes[4096] ?? 0) ^ 0xff;
      writeFileSync(file, bytes);
    },
  });
  writeRelease(join(folder, "other-key"), { version: VERSION, files: { [platform]: binary }, key: throwawayKey() });
  releases = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      served.push(path);
      const file = Bun.file(join(folder, path));
      return (await file.exists()) ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
  fake = await startFakeAnthropic({ script: Array.from({ length: 80 }, () => route) });

  workspace = join(root, "workspace");
  for (const name of ["alpha", "beta"]) {
    mkdirSync(join(workspace, "packages", name), { recursive: true });
    writeFileSync(join(workspace, "packages", name, "README.md"), `# ${name}\n`);
  }
  mkdirSync(join(workspace, "prompts"));
  writeFileSync(join(workspace, "prompts", "beta.md"), "Write notes for package beta\n");
  runGit(workspace, ["init", "-q"]);
  runGit(workspace, ["add", "."]);
  runGit(workspace, ["commit", "-qm", "packages"]);
}, 180_000);

afterAll(async () => {
  releases?.stop(true);
  await fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

interface ActionRun {
  /** Outputs the action set (core.setOutput), by name. */
  outputs: Record<string, string>;
  /** core.setFailed / core.error messages. */
  errors: string[];
  /** GITHUB_STEP_SUMMARY's contents ("" when nothing was written). */
  summary: string;
  toolCache: string;
  stdout: string;
  stderr: string;
}

let runs = 0;

/** One step: INPUT_* as GitHub sets them (`INPUT_` + the name in capitals, hyphens kept). */
async function runAction(inputs: Record<string, string>, toolCache = join(root, `tool-cache-${runs + 1}`)): Promise<ActionRun> {
  const step = join(root, `step-${++runs}`);
  mkdirSync(step);
  const summaryFile = join(step, "summary.md");
  const env: Record<string, string> = {
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TOOL_CACHE: toolCache,
    RUNNER_TEMP: step,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const lines = Object.entries(env).map(([name, value]) => {
    // dotenv reads single-quoted values literally.
    if (value.includes("'") || value.includes("\n")) throw new Error(`test input ${name} cannot be written to a dotenv file`);
    return `${name}='${value}'`;
  });
  const envFile = join(step, ".env");
  writeFileSync(envFile, `${lines.join("\n")}\n`);
  const configDir = join(step, "config");
  mkdirSync(configDir);
  const child = Bun.spawn(["node", LOCAL_ACTION, "run", ROOT, "action/src/main.ts", envFile], {
    // local-action finds @actions/core (to stub it) and tsx through the action's own package.
    cwd: ACTION_PACKAGE,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: configDir,
      CLEW_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-test-fake",
      FORCE_COLOR: "0",
      NO_COLOR: "1",
      NPM_CONFIG_UPDATE_NOTIFIER: "false",
      NPM_CONFIG_OFFLINE: "true",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  // local-action itself exits 0 for a failed step; a non-zero exit is local-action failing to run it.
  if (code !== 0) throw new Error(`local-action exited with ${code}:\n${stdout}\n${stderr}`);
  const outputs: Record<string, string> = {};
  const errors: string[] = [];
  for (const line of stdout.split("\n")) {
    const output = /^::set-output name=([\w-]+)::(.*)$/.exec(line);
    if (output) outputs[output[1] as string] = output[2] as string;
    const error = /^::error::(.*)$/.exec(line);
    if (error) errors.push(error[1] as string);
  }
  return { outputs, errors, summary: existsSync(summaryFile) ? readFileSync(summaryFile, "utf8") : "", toolCache, stdout, stderr };
}

const base = (): string => `http://127.0.0.1:${releases.port}`;

function requestsFor(marker: string): RecordedRequest[] {
  return fake.requests.filter((request) => taskOf(request).includes(marker));
}

function systemText(request: RecordedRequest): string {
  const system = request.body.system;
  return Array.isArray(system) ? textOf(system) : typeof system === "string" ? system : "";
}

function cachedBinary(toolCache: string): string {
  return join(toolCache, "clew", VERSION, platform, "clew");
}

describe("the clew action under @github/local-action", () => {
  test("a matrix of two jobs installs the verified release, runs each job's prompt with its inputs as flags, and hands back the json results", async () => {
    const common = { "download-url": `${base()}/good`, "trusted-key": keyFile, "max-turns": "4", "max-budget-usd": "1" };
    const [alpha, beta] = await Promise.all([
      runAction({ ...common, prompt: "Write notes for package alpha", "working-directory": "packages/alpha", model: "claude-sonnet-4-5", "allowed-tools": "Write" }),
      runAction({ ...common, "prompt-file": "prompts/beta.md", "working-directory": "packages/beta", model: "claude-haiku-4-5", "disallowed-tools": "WebFetch" }),
    ]);
    for (const [name, job] of [["alpha", alpha], ["beta", beta]] as const) {
      expect({ name, errors: job.errors, exitCode: job.outputs["exit-code"] }).toEqual({ name, errors: [], exitCode: "0" });
      const result = JSON.parse(job.outputs.result ?? "") as Record<string, unknown>;
      expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false, num_turns: 2, session_id: job.outputs["session-id"], total_cost_usd: Number(job.outputs["cost-usd"]) });
      expect(job.summary).toContain("### clew: succeeded");
      expect(job.summary).toContain(`| session | \`${String(result.session_id)}\` |`);
      expect(job.summary).toContain(`| clew | ${VERSION} (download) |`);
      // Installed into this runner's tool cache, byte for byte the signed release.
      expect(sha256File(cachedBinary(job.toolCache))).toBe(sha256File(binary));
      expect(existsSync(join(job.toolCache, "clew", VERSION, `${platform}.complete`))).toBe(true);
    }

    const alphaResult = JSON.parse(alpha.outputs.result ?? "") as Record<string, unknown>;
    const betaResult = JSON.parse(beta.outputs.result ?? "") as Record<string, unknown>;
    // allowed-tools let alpha's Write through; beta had no rule, so headless clew denied it.
    expect(alphaResult.result).toBe("alpha: wrote NOTES.md");
    expect(alphaResult.permission_denials).toEqual([]);
    expect(readFileSync(join(workspace, "packages/alpha/NOTES.md"), "utf8")).toBe("notes for alpha\n");
    expect(betaResult.result).toBe("beta: write refused");
    expect(betaResult.permission_denials).toEqual([
      { tool_name: "Write", tool_use_id: expect.any(String), tool_input: { file_path: join(workspace, "packages/beta/NOTES.md"), content: "notes for beta\n" }, reason: expect.any(String) },
    ]);
    expect(existsSync(join(workspace, "packages/beta/NOTES.md"))).toBe(false);
    expect(beta.summary).toContain("#### Denied tool calls (1)");
    expect(alpha.summary).toContain("alpha: wrote NOTES.md");

    // model, working-directory and disallowed-tools reached clew; beta's prompt came from its file on stdin.
    const alphaRequests = requestsFor("package alpha");
    const betaRequests = requestsFor("package beta");
    expect(alphaRequests.map((request) => request.body.model)).toEqual(["claude-sonnet-4-5", "claude-sonnet-4-5"]);
    expect(betaRequests.map((request) => request.body.model)).toEqual(["claude-haiku-4-5", "claude-haiku-4-5"]);
    expect(systemText(alphaRequests[0] as RecordedRequest)).toContain(`Working directory: ${join(workspace, "packages/alpha")}`);
    expect(systemText(betaRequests[0] as RecordedRequest)).toContain(`Working directory: ${join(workspace, "packages/beta")}`);
    expect(toolNames(alphaRequests[0] as RecordedRequest)).toContain("WebFetch");
    expect(toolNames(betaRequests[0] as RecordedRequest)).not.toContain("WebFetch");

    // Each job's runner downloaded the manifest, its signature and the binary once.
    expect([...served].sort()).toEqual(["/good/clew-linux-x64", "/good/clew-linux-x64", "/good/manifest.json", "/good/manifest.json", "/good/manifest.json.sig", "/good/manifest.json.sig"].map((path) => path.replace("linux-x64", platform)).sort());
  }, 120_000);

  test("a second run on the same runner takes the binary from the tool cache after checking it against the signed manifest", async () => {
    const toolCache = join(root, "shared-cache");
    const first = await runAction({ prompt: "Say hello once", "download-url": `${base()}/good/manifest.json`, "trusted-key": keyFile }, toolCache);
    expect(first.errors).toEqual([]);
    served.length = 0;
    const second = await runAction({ prompt: "Say hello twice", "download-url": `${base()}/good`, "trusted-key": keyFile }, toolCache);
    expect(second.errors).toEqual([]);
    expect(served).toEqual(["/good/manifest.json", "/good/manifest.json.sig"]);
    expect(second.summary).toContain(`| clew | ${VERSION} (tool-cache) |`);
    expect(JSON.parse(second.outputs.result ?? "")).toMatchObject({ subtype: "success", result: "answered: Say hello twice" });
  }, 60_000);

  for (const [folder, check] of [
    ["tampered", `sha256 check failed: ${releaseFileName(platform)} has sha256`],
    ["other-key", "signature check failed: manifest.json is not signed by the trusted release key"],
  ] as const) {
    test(`a ${folder === "tampered" ? "tampered binary" : "manifest signed by another key"} is refused: the step fails, nothing is cached and clew never runs`, async () => {
      const before = fake.requests.length;
      const job = await runAction({ prompt: "Say hello", "download-url": `${base()}/${folder}`, "trusted-key": keyFile });
      expect(job.errors.length).toBe(1);
      expect(job.errors[0]).toStartWith(check);
      expect(job.outputs).toEqual({});
      expect(job.summary).toBe("");
      expect(fake.requests.length).toBe(before);
      // Not even a staging leftover: the next run cannot mistake anything here for an install.
      const cacheFolder = join(job.toolCache, "clew");
      expect(existsSync(cacheFolder) ? readdirSync(cacheFolder) : []).toEqual([]);
    }, 60_000);
  }

  test("clew-path uses the binary already on the runner and downloads nothing", async () => {
    served.length = 0;
    const job = await runAction({ prompt: "Say hello from the runner", "clew-path": binary, "download-url": `${base()}/never` });
    expect(job.errors).toEqual([]);
    expect(served).toEqual([]);
    expect(existsSync(join(job.toolCache, "clew"))).toBe(false);
    expect(JSON.parse(job.outputs.result ?? "")).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "answered: Say hello from the runner" });
    expect(job.summary).toContain(`| clew | ${VERSION} (clew-path ${binary}) |`);
  }, 60_000);

  test("an error result fails the step with the result's error, and the outputs still carry it", async () => {
    const job = await runAction({ prompt: "Keep looking around", "clew-path": binary, "max-turns": "1" });
    expect(job.errors).toEqual(["clew exited with 1 (error_max_turns): Reached maximum number of turns (1)"]);
    expect(job.outputs["exit-code"]).toBe("1");
    expect(JSON.parse(job.outputs.result ?? "")).toMatchObject({ type: "result", subtype: "error_max_turns", is_error: true, errors: ["Reached maximum number of turns (1)"] });
    expect(job.summary).toContain("### clew: failed: error_max_turns");
    expect(job.summary).toContain("- Reached maximum number of turns (1)");
  }, 60_000);

  test("the checked-in bundle runs on plain node as a runner runs it: outputs to GITHUB_OUTPUT, a failed step exits 1", async () => {
    const step = join(root, "bundle-step");
    mkdirSync(step);
    const outputFile = join(step, "output");
    const summaryFile = join(step, "summary.md");
    // The runner creates both files before the step starts.
    writeFileSync(outputFile, "");
    writeFileSync(summaryFile, "");
    const bundle = (prompt: string, extra: Record<string, string>) =>
      Bun.spawn(["node", join(ROOT, "action/dist/index.js")], {
        cwd: workspace,
        // The runner's names: INPUT_<NAME> with hyphens kept, which no shell could export.
        env: { PATH: process.env.PATH ?? "", HOME: step, CLEW_CONFIG_DIR: step, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test-fake", GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, INPUT_PROMPT: prompt, "INPUT_CLEW-PATH": binary, ...extra },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
    const ok = bundle("Say hello from the bundle", {});
    const [okOut, okCode] = await Promise.all([new Response(ok.stdout).text(), ok.exited]);
    expect({ code: okCode, errors: okOut.split("\n").filter((line) => line.startsWith("::error::")) }).toEqual({ code: 0, errors: [] });
    const written = readFileSync(outputFile, "utf8");
    // @actions/core writes each output as `name<<delimiter`, the value, the delimiter.
    const outputs = Object.fromEntries([...written.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)].map((match) => [match[1], match[3]]));
    expect(Object.keys(outputs).sort()).toEqual(["cost-usd", "exit-code", "result", "session-id"]);
    expect(JSON.parse(outputs.result ?? "")).toMatchObject({ type: "result", subtype: "success", result: "answered: Say hello from the bundle", session_id: outputs["session-id"] });
    expect(readFileSync(summaryFile, "utf8")).toContain("### clew: succeeded");

    const failing = bundle("Keep looking around", { "INPUT_MAX-TURNS": "1" });
    const [failOut, failCode] = await Promise.all([new Response(failing.stdout).text(), failing.exited]);
    expect(failCode).toBe(1);
    expect(failOut).toContain("::error::clew exited with 1 (error_max_turns): Reached maximum number of turns (1)");
  }, 60_000);

  test("a bad input fails the step by name before anything is installed or run", async () => {
    const before = fake.requests.length;
    served.length = 0;
    const job = await runAction({ prompt: "Say hello", "max-turns": "ten", "download-url": `${base()}/good`, "trusted-key": keyFile });
    expect(job.errors).toEqual(["input max-turns: 'ten' is not a positive whole number (e.g. max-turns: 10)"]);
    expect(job.outputs).toEqual({});
    expect(served).toEqual([]);
    expect(fake.requests.length).toBe(before);
  }, 60_000);
});
