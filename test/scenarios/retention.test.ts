// cleanupPeriodDays against the compiled binary: sessions whose transcripts were last written
// before the period are deleted with their own folders once the first request is out, in every
// project (a CI host's old job folders included); the running session, fresh sessions and what a
// project's sessions share (memory, prompt history, the checkpoint shadow repository) stay. No
// sweep with a long period, without session persistence, or in --bare; a repository's settings
// cannot shorten the period.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { projectStateDir } from "../../src/settings/paths.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DAY_S = 24 * 60 * 60;
const OLD_ID = "0a0a0a0a-1111-4222-8333-444444444444";
const FRESH_ID = "0b0b0b0b-1111-4222-8333-444444444444";
/** A session of a job folder that no longer exists, as a CI host leaves them. */
const ELSEWHERE_ID = "0c0c0c0c-1111-4222-8333-444444444444";

/** A session's transcript and its folder, as clew writes them. */
function sessionFiles(id: string): Record<string, string> {
  return {
    [`${id}.jsonl`]: `${JSON.stringify({ type: "clew-session", version: 1, sessionId: id })}\n`,
    [`${id}/tool-results/toolu_1.txt`]: "a large tool output\n",
    [`${id}/subagents/agent-a1.jsonl`]: "{}\n",
    [`${id}/checkpoints.json`]: "{}\n",
  };
}

/** What a project's sessions share: never deleted, however old. */
const SHARED: Record<string, string> = {
  "memory/MEMORY.md": "- the build needs bun\n",
  "history.jsonl": '{"display":"hi"}\n',
  // An added folder's shadow repository (clew's own, checkpoints.git, is made by the run).
  "checkpoints/other-0123abcd.git/HEAD": "ref: refs/heads/master\n",
  "notes.jsonl": "not a session\n",
};

/** Writes `files` under `dir`, every file and folder last modified `ageDays` ago (0: now). */
function seed(dir: string, files: Record<string, string>, ageDays: number): void {
  const touched = new Set<string>();
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    touched.add(full);
    for (let parent = dirname(full); parent !== dir; parent = dirname(parent)) touched.add(parent);
  }
  if (ageDays > 0) age([...touched], ageDays);
}

function age(paths: string[], ageDays: number): void {
  const when = Date.now() / 1000 - ageDays * DAY_S;
  // Deepest first: setting a file's time does not touch its folder's, creating it did.
  for (const path of [...paths].sort((a, b) => b.length - a.length)) utimesSync(path, when, when);
}

/** Every path under `dir`, relative, sorted; files and folders alike. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

interface Setup {
  cwd: string;
  configDir: string;
  stateDir: string;
  elsewhereDir: string;
}

function setUp(settings?: Record<string, unknown>): Setup {
  const cwd = writeWorkspace({ "README.md": "hi\n" });
  const configDir = tempDirectory("clew-config-");
  if (settings) writeFileSync(join(configDir, "settings.json"), JSON.stringify(settings));
  const stateDir = projectStateDir(configDir, cwd);
  seed(stateDir, { ...sessionFiles(OLD_ID), ...SHARED }, 40);
  seed(stateDir, sessionFiles(FRESH_ID), 0);
  const elsewhereDir = projectStateDir(configDir, "/tmp/ci-job-that-is-gone");
  seed(elsewhereDir, sessionFiles(ELSEWHERE_ID), 40);
  return { cwd, configDir, stateDir, elsewhereDir };
}

async function run(setup: Setup, args: string[] = []) {
  await server?.close();
  const fake = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
  const result = await runClew(["-p", "hi", "--output-format", "json", ...args], { cwd: setup.cwd, configDir: setup.configDir, baseURL: fake.url });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return (JSON.parse(result.stdout) as { session_id: string }).session_id;
}

const everySessionFile = (id: string) => [id, ...Object.keys(sessionFiles(id)), `${id}/subagents`, `${id}/tool-results`].sort();
const sharedPaths = [...Object.keys(SHARED), "checkpoints", "checkpoints/other-0123abcd.git", "memory"].sort();
/** Which of `paths` are not under `dir`. */
const missing = (dir: string, paths: string[]) => paths.filter((path) => !tree(dir).includes(path));

describe("cleanupPeriodDays", () => {
  test("expired sessions go with their folders, in every project; the running and fresh sessions and what sessions share stay", async () => {
    const setup = setUp();
    const sessionId = await run(setup);
    const left = tree(setup.stateDir);
    expect(everySessionFile(OLD_ID).filter((path) => left.includes(path))).toEqual([]);
    expect(missing(setup.stateDir, [...everySessionFile(FRESH_ID), ...sharedPaths, `${sessionId}.jsonl`])).toEqual([]);
    // The other project's folder itself stays (another start may be creating a session in it).
    expect({ isFolder: statSync(setup.elsewhereDir).isDirectory(), left: tree(setup.elsewhereDir) }).toEqual({ isFolder: true, left: [] });
  });

  test("at most one sweep a day: a start within a day of the last one leaves an expired session for the next day's", async () => {
    const setup = setUp();
    await run(setup);
    const LATE_ID = "0d0d0d0d-1111-4222-8333-444444444444";
    seed(setup.stateDir, sessionFiles(LATE_ID), 40);
    await run(setup);
    expect(missing(setup.stateDir, everySessionFile(LATE_ID))).toEqual([]);
    age([join(setup.configDir, "cache", "last-session-sweep")], 2);
    await run(setup);
    expect(everySessionFile(LATE_ID).filter((path) => tree(setup.stateDir).includes(path))).toEqual([]);
  });

  test("a period longer than the sessions' age keeps them", async () => {
    const setup = setUp({ cleanupPeriodDays: 99999 });
    await run(setup);
    expect(missing(setup.stateDir, [...everySessionFile(OLD_ID), ...everySessionFile(FRESH_ID), ...sharedPaths])).toEqual([]);
    expect(tree(setup.elsewhereDir)).toEqual(everySessionFile(ELSEWHERE_ID));
  });

  test("a repository's own settings cannot shorten the period: their value gives way to the default (sessions of every project are at stake)", async () => {
    const setup = setUp();
    // 5 days old: kept by the default 30, deleted if the project's 1 counted.
    seed(setup.stateDir, sessionFiles(FRESH_ID), 5);
    for (const file of [".claude/settings.json", ".claude/settings.local.json"]) {
      mkdirSync(join(setup.cwd, ".claude"), { recursive: true });
      writeFileSync(join(setup.cwd, file), JSON.stringify({ cleanupPeriodDays: 1 }));
    }
    await run(setup);
    expect(missing(setup.stateDir, everySessionFile(FRESH_ID))).toEqual([]);
    expect(everySessionFile(OLD_ID).filter((path) => tree(setup.stateDir).includes(path))).toEqual([]);
  });

  test("an expired session resumed is the running one and stays", async () => {
    const setup = setUp();
    const first = await run(setup);
    age(tree(setup.stateDir).filter((path) => path.startsWith(first)).map((path) => join(setup.stateDir, path)), 40);
    const resumed = await run(setup, ["--resume", first]);
    expect({ resumed, missing: missing(setup.stateDir, [`${first}.jsonl`, ...everySessionFile(FRESH_ID)]) }).toEqual({ resumed: first, missing: [] });
  });

  test("--no-session-persistence and --bare delete nothing", async () => {
    for (const flag of ["--no-session-persistence", "--bare"]) {
      const setup = setUp();
      await run(setup, [flag]);
      expect({ flag, missing: missing(setup.stateDir, [...everySessionFile(OLD_ID), ...everySessionFile(FRESH_ID), ...sharedPaths]) }).toEqual({ flag, missing: [] });
      expect({ flag, elsewhere: tree(setup.elsewhereDir) }).toEqual({ flag, elsewhere: everySessionFile(ELSEWHERE_ID) });
    }
  });
});
