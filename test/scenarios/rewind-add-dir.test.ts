// Checkpoints cover every working directory, not only the project folder (issue #14), against the
// compiled binary: a session started with `--add-dir OTHER` whose turns Edit a file in the project
// and `rm` one in OTHER through Bash is rewound with `--rewind-to 1`; both come back exactly, OTHER's
// own .git is byte-identical, a hand edit in OTHER is kept and reported by its absolute path. A
// folder added from the second prompt on goes back to how it was then; a session recorded in the
// old format (one tree, the project's) still rewinds its project folder as before.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";
import { gitOutput, treeDigest } from "../helpers/tree-digest.ts";

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Content and permission bits of each path (null: absent). */
function state(dir: string, paths: string[]): Record<string, { text: string; mode: string } | null> {
  return Object.fromEntries(paths.map((path) => {
    const full = join(dir, path);
    return [path, existsSync(full) ? { text: readFileSync(full, "utf8"), mode: (statSync(full).mode & 0o777).toString(8) } : null];
  }));
}

function repository(files: Record<string, string>): string {
  const dir = writeWorkspace(files);
  gitOutput(dir, "init", "-q");
  gitOutput(dir, "add", ".");
  gitOutput(dir, "commit", "-qm", "start");
  return dir;
}

/** A project and another folder, each its own git repository. */
function spaces() {
  const dir = repository({ "edit.txt": "first line\nsecond line\n" });
  const other = repository({ "gone.sh": "echo gone\n", "hand.txt": "as committed\n", "keep.txt": "kept\n" });
  chmodSync(join(other, "gone.sh"), 0o755);
  gitOutput(other, "add", ".");
  gitOutput(other, "commit", "-qm", "mode");
  return { dir, other, configDir: tempDirectory("clew-config-") };
}

type Space = ReturnType<typeof spaces>;

async function turn(space: Space, args: string[], script: ScriptStep[]) {
  const fake = await startFakeAnthropic({ script });
  servers.push(fake);
  const run = await runClew(["-p", ...args, "--output-format", "json", "--permission-mode", "bypassPermissions"], { cwd: space.dir, baseURL: fake.url, configDir: space.configDir });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(fake.violations).toEqual([]);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

async function rewindTo(space: Space, sessionId: string, prompt: number) {
  const run = await runClew(["-p", "-r", sessionId, "--rewind-to", String(prompt), "--output-format", "json"], { cwd: space.dir, configDir: space.configDir });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout) as Record<string, unknown> & { files: Record<string, string[]> };
  for (const list of Object.values(result.files)) list.sort();
  return result;
}

const editScript = (space: Space): ScriptStep[] => [
  reply().toolUse("Read", { file_path: join(space.dir, "edit.txt") }),
  reply().toolUse("Edit", { file_path: join(space.dir, "edit.txt"), old_string: "second line", new_string: "second line, fixed" }),
  reply().text("Fixed."),
];

/** The session's checkpoints.json (the only one under the config dir). */
function recordFile(configDir: string): string {
  const found = Object.keys(treeDigest(join(configDir, "projects"))).filter((path) => path.endsWith("checkpoints.json"));
  expect(found).toHaveLength(1);
  return join(configDir, "projects", found[0] ?? "");
}

describe("scenario: rewind across --add-dir folders", () => {
  test("--rewind-to 1 restores the project's Edit and OTHER's Bash rm; OTHER's .git byte-identical; a hand edit in OTHER kept and reported", async () => {
    const space = spaces();
    const OTHER_PATHS = ["gone.sh", "hand.txt", "keep.txt", "made.txt", "mine.txt"];
    const otherBefore = state(space.other, OTHER_PATHS);
    const gitBefore = { project: treeDigest(join(space.dir, ".git")), other: treeDigest(join(space.other, ".git")) };
    const first = await turn(space, ["fix the second line", "--add-dir", space.other], editScript(space));
    const sessionId = String(first.session_id);
    // The user, by hand, between the prompts.
    writeFileSync(join(space.other, "hand.txt"), "changed by hand\n");
    writeFileSync(join(space.other, "mine.txt"), "mine\n");
    await turn(space, ["-r", sessionId, "tidy the other folder", "--add-dir", space.other], [
      reply().toolUse("Bash", { command: `rm ${join(space.other, "gone.sh")} && echo made > ${join(space.other, "made.txt")}` }),
      reply().text("Tidied."),
    ]);
    expect(readFileSync(join(space.dir, "edit.txt"), "utf8")).toBe("first line\nsecond line, fixed\n");
    expect(state(space.other, ["gone.sh", "made.txt"])).toEqual({ "gone.sh": null, "made.txt": { text: "made\n", mode: "644" } });

    // No --add-dir needed to rewind: the checkpoints know which folders they cover.
    expect(await rewindTo(space, sessionId, 1)).toEqual({
      type: "rewind",
      subtype: "success",
      is_error: false,
      session_id: sessionId,
      rewound_to: 1,
      prompt: "fix the second line",
      files: { restored: [join(space.other, "gone.sh"), "edit.txt"], removed: [join(space.other, "made.txt")], kept: [join(space.other, "hand.txt"), join(space.other, "mine.txt")] },
      conversation: { messages: 0 },
    });
    expect(readFileSync(join(space.dir, "edit.txt"), "utf8")).toBe("first line\nsecond line\n");
    expect(state(space.other, OTHER_PATHS)).toEqual({ ...otherBefore, "hand.txt": { text: "changed by hand\n", mode: "644" }, "mine.txt": { text: "mine\n", mode: "644" } });
    expect({ project: treeDigest(join(space.dir, ".git")), other: treeDigest(join(space.other, ".git")) }).toEqual(gitBefore);
    expect(gitOutput(space.other, "status", "--porcelain")).toBe(" M hand.txt\n?? mine.txt\n");
    expect(gitOutput(space.dir, "status", "--porcelain")).toBe("");
    // Each folder's shadow repository lives in clew's state folder, OTHER's named after it and keyed by its real path.
    const stateDir = join(recordFile(space.configDir), "..", "..");
    expect(readdirSync(join(stateDir, "checkpoints"))).toEqual([expect.stringMatching(/^clew-scenario-\w+-[0-9a-f]{16}\.git$/)]);
    expect(readdirSync(stateDir).includes("checkpoints.git")).toBe(true);
  }, 120_000);

  test("a folder added from the second prompt on goes back to how it was at that prompt; text output names its files by absolute path", async () => {
    const space = spaces();
    const first = await turn(space, ["fix the second line"], [
      reply().toolUse("Bash", { command: `sed -i s/second/2nd/ edit.txt && echo early > ${join(space.other, "keep.txt")}` }),
      reply().text("Done."),
    ]);
    const sessionId = String(first.session_id);
    await turn(space, ["-r", sessionId, "remove gone.sh over there", "--add-dir", space.other], [reply().toolUse("Bash", { command: `rm ${join(space.other, "gone.sh")}` }), reply().text("Removed.")]);

    const run = await runClew(["-p", "-r", sessionId, "--rewind-to", "1"], { cwd: space.dir, configDir: space.configDir });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(run.stdout).toBe([
      `Rewound session ${sessionId} to just before prompt 1 (“fix the second line”).`,
      `Restored 2 files: edit.txt, ${join(space.other, "gone.sh")}`,
      "Conversation rewound to before prompt 1 (0 messages kept).",
      "",
    ].join("\n"));
    expect(state(space.other, ["gone.sh", "keep.txt"])).toEqual({ "gone.sh": { text: "echo gone\n", mode: "755" }, "keep.txt": { text: "early\n", mode: "644" } });
    expect(readFileSync(join(space.dir, "edit.txt"), "utf8")).toBe("first line\nsecond line\n");
  }, 120_000);

  test("a session recorded in the old format (one tree per checkpoint, the project's) still rewinds its project folder", async () => {
    const space = spaces();
    const first = await turn(space, ["fix the second line", "--add-dir", space.other], editScript(space));
    const sessionId = String(first.session_id);
    await turn(space, ["-r", sessionId, "remove gone.sh over there", "--add-dir", space.other], [reply().toolUse("Bash", { command: `rm ${join(space.other, "gone.sh")} && echo two >> edit.txt` }), reply().text("Removed.")]);
    // What clew wrote before checkpoints covered added folders: version 1, `before` and `after` one tree each.
    const file = recordFile(space.configDir);
    const stored = JSON.parse(readFileSync(file, "utf8")) as { version: number; checkpoints: Array<Record<string, unknown> & { before: Record<string, string>; after?: Record<string, string> }> };
    expect(stored.version).toBe(2);
    expect(stored.checkpoints.map((record) => Object.keys(record.before))).toEqual([[".", space.other], [".", space.other]]);
    const old = stored.checkpoints.map((record) => ({ ...record, before: record.before["."], ...(record.after ? { after: record.after["."] } : {}) }));
    writeFileSync(file, `${JSON.stringify({ version: 1, checkpoints: old }, null, 2)}\n`);

    const result = await rewindTo(space, sessionId, 1);
    expect(result.files).toEqual({ restored: ["edit.txt"], removed: [], kept: [] });
    expect(readFileSync(join(space.dir, "edit.txt"), "utf8")).toBe("first line\nsecond line\n");
    // OTHER was not part of those checkpoints: it stays as it is.
    expect(existsSync(join(space.other, "gone.sh"))).toBe(false);
  }, 120_000);
});
