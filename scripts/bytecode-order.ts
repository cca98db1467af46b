// Profile-guided bytecode layout (Bun's `compile.bytecodeOrder`). A binary's bytecode is mapped
// from the executable file, so every page a run touches counts in its RSS; laid out in source
// order, the functions a `clew -p` run uses are spread over most of the ~5.4 MB of bytecode. A
// first build is run on the benchmark's two tasks (and the longer one again with a stdio MCP server
// connected, when the test fixtures are there) against the in-repo fake API with
// BUN_BYTECODE_ORDER_OUT, which records the functions each run used; the final build places those
// together at the front (−2.5 to −3 MiB peak RSS on both tasks, README "Performance").
//
// The runs are scripted, so the profile holds the same functions on every machine: CI's build,
// a developer's and the release's lay the binary out alike. A function the profile does not know
// (code changed since, another platform's build) is only placed among the cold ones; nothing
// breaks. The profile comes from the host's binary and applies to every release target: it names
// functions by their code, not by where the target's bytecode put them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");

/** A recording run that has not ended by then is stuck: the build stops rather than hang. */
const RUN_TIMEOUT_MS = 60_000;

/** The fixtures the recording runs need; a build context without the tests (the Dockerfile's) has none. */
const FIXTURES = ["test/fake-anthropic/index.ts", "test/scenarios/workspaces.ts", "test/scenarios/read-grep-task.ts", "test/helpers/clew-process.ts"];

/** A stdio MCP server for the third run; a build context without it (the Dockerfile's) records the first two. */
const MCP_FIXTURE = "test/mcp-servers/fixtures/sdk-server.ts";

export class BytecodeOrderError extends Error {}

/** Whether this checkout can record a profile (its tests are there). */
export function canRecordBytecodeOrder(): boolean {
  return FIXTURES.every((file) => existsSync(join(root, file)));
}

/**
 * Runs `binary` (built with `bytecode: true`) on the fix-a-test and the read/grep/edit task (then
 * that one with an MCP server) and returns the order files it wrote, the first task's first: the
 * shorter run's functions lead.
 * Throws BytecodeOrderError when a run fails or writes no profile: such a binary is broken.
 */
export async function recordBytecodeOrder(binary: string): Promise<{ files: string[]; dispose: () => void }> {
  const [{ startFakeAnthropic }, { clewEnv }, { DONE, failingTestWorkspace, fixScript }, { READ_GREP_ANSWER, readGrepScript, readGrepWorkspace }] = await Promise.all([
    import("../test/fake-anthropic/index.ts"),
    import("../test/helpers/clew-process.ts"),
    import("../test/scenarios/workspaces.ts"),
    import("../test/scenarios/read-grep-task.ts"),
  ]);
  const folder = mkdtempSync(join(tmpdir(), "clew-bytecode-order-"));
  const mcpConfig = JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [join(root, MCP_FIXTURE)] } } });
  const dispose = () => rmSync(folder, { recursive: true, force: true });
  const tasks = [
    { name: "fix", workspace: failingTestWorkspace, script: fixScript, answer: DONE, args: [] as string[] },
    { name: "read-grep", workspace: readGrepWorkspace, script: readGrepScript, answer: READ_GREP_ANSWER, args: [] as string[] },
    // The same task with one stdio MCP server (the benchmark's MCP row): the MCP SDK's client, the
    // zod it parses with and clew's MCP runtime are laid out together, after what every run uses
    // (−1.6 MiB peak RSS on that row; the runs without MCP are laid out as before).
    ...(existsSync(join(root, MCP_FIXTURE)) ? [{ name: "read-grep-mcp", workspace: readGrepWorkspace, script: readGrepScript, answer: READ_GREP_ANSWER, args: ["--mcp-config", mcpConfig] }] : []),
  ];
  const files: string[] = [];
  try {
    for (const task of tasks) {
      const workspace = task.workspace();
      const file = join(folder, `${task.name}.order`);
      const configDir = mkdtempSync(join(folder, `${task.name}-config-`));
      const server = await startFakeAnthropic({ script: task.script(workspace) });
      try {
        const env = clewEnv({ cwd: workspace, baseURL: server.url, configDir });
        // The fix-a-test task's Bash step runs `bun test`: the Bun running this build is the one there is.
        env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ""}`;
        const child = Bun.spawn([binary, "-p", "fix the task", "--permission-mode", "bypassPermissions", ...task.args], {
          cwd: workspace,
          env: { ...env, BUN_BYTECODE_ORDER_OUT: file },
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
          timeout: RUN_TIMEOUT_MS,
        });
        const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
        const wrote = existsSync(file) && readFileSync(file, "utf8").startsWith("v");
        if (code !== 0 || !wrote) {
          const how = child.signalCode ? `was killed (${child.signalCode}) after ${RUN_TIMEOUT_MS / 1000} s` : `exited ${code}`;
          throw new BytecodeOrderError(`recording the bytecode order: ${binary} -p on the ${task.name} task ${how}${wrote ? "" : " without writing a profile"}; its output:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
        }
        // A run that went another way than scripted (a tool failed) still wrote a usable profile, only a less typical one.
        if (!stdout.includes(task.answer)) console.error(`note: the ${task.name} task's profiled run did not end as scripted; its bytecode order is still used:\n${stdout.slice(-500)}`);
      } finally {
        rmSync(workspace, { recursive: true, force: true });
        await server.close();
      }
      files.push(file);
    }
  } catch (error) {
    dispose();
    throw error;
  }
  return { files, dispose };
}
