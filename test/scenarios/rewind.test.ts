// Rewind against the compiled binary (issue #14's acceptance): a session whose turns Edit a file,
// `rm` another through Bash, create a third through a UserPromptSubmit hook and `mv` a fourth is
// rewound with `clew -p -r ID --rewind-to 1`; all four come back exactly (content, mode, the
// created file gone), the user's own .git is byte-identical, files edited by hand in between are
// kept and reported, and the conversation goes back too: the next prompt is sent without the
// rewound turns.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, reply, startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { withoutCacheControl, withoutReminders } from "../helpers/transcript.ts";
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

const PATHS = ["edit.txt", "gone.sh", "hooked.txt", "move.sh", "sub/move.sh", "notes.md", "mine.txt"];

/** A git project, and user settings with a UserPromptSubmit hook that creates hooked.txt once. */
function project() {
  const dir = writeWorkspace({ "edit.txt": "first line\nsecond line\n", "gone.sh": "echo gone\n", "move.sh": "echo move\n", "notes.md": "# notes\n" });
  chmodSync(join(dir, "gone.sh"), 0o755);
  chmodSync(join(dir, "move.sh"), 0o755);
  gitOutput(dir, "init", "-q");
  gitOutput(dir, "add", ".");
  gitOutput(dir, "commit", "-qm", "start");
  const configDir = tempDirectory("clew-config-");
  const hook = join(configDir, "make-file.sh");
  writeFileSync(hook, '#!/bin/bash\ncat > /dev/null\n[ -e "$CLAUDE_PROJECT_DIR/hooked.txt" ] || echo "made by a hook" > "$CLAUDE_PROJECT_DIR/hooked.txt"\n');
  chmodSync(hook, 0o755);
  writeFileSync(join(configDir, "settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }] } }));
  return { dir, configDir };
}

async function turn(space: { dir: string; configDir: string }, args: string[], script: ScriptStep[]) {
  const fake = await startFakeAnthropic({ script });
  servers.push(fake);
  const run = await runClew(["-p", ...args, "--output-format", "json", "--permission-mode", "bypassPermissions"], { cwd: space.dir, baseURL: fake.url, configDir: space.configDir });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return { fake, json: JSON.parse(run.stdout) as Record<string, unknown> };
}

/** Three prompts (Edit; Bash rm; Bash mv), with the user's hand edits between the second and the third. */
async function threeTurns(space: { dir: string; configDir: string }) {
  const edit = join(space.dir, "edit.txt");
  const first = await turn(space, ["fix the second line"], [
    reply().toolUse("Read", { file_path: edit }),
    reply().toolUse("Edit", { file_path: edit, old_string: "second line", new_string: "second line, fixed" }),
    reply().text("Fixed."),
  ]);
  const sessionId = String(first.json.session_id);
  await turn(space, ["-r", sessionId, "remove gone.sh"], [reply().toolUse("Bash", { command: "rm gone.sh" }), reply().text("Removed.")]);
  // The user, between two prompts.
  writeFileSync(join(space.dir, "notes.md"), "# notes\nwritten by hand\n");
  writeFileSync(join(space.dir, "mine.txt"), "mine, by hand\n");
  await turn(space, ["-r", sessionId, "move move.sh into sub/"], [reply().toolUse("Bash", { command: "mkdir sub && mv move.sh sub/move.sh" }), reply().text("Moved.")]);
  return sessionId;
}

describe("scenario: rewind", () => {
  test("--rewind-to 1 puts back an Edit, a Bash rm, a hook's new file and a Bash mv exactly; .git untouched; hand edits kept", async () => {
    const space = project();
    const before = state(space.dir, PATHS);
    const gitBefore = treeDigest(join(space.dir, ".git"));
    const sessionId = await threeTurns(space);
    expect(state(space.dir, ["edit.txt", "gone.sh", "hooked.txt", "move.sh", "sub/move.sh"])).toEqual({
      "edit.txt": { text: "first line\nsecond line, fixed\n", mode: "644" },
      "gone.sh": null,
      "hooked.txt": { text: "made by a hook\n", mode: "644" },
      "move.sh": null,
      "sub/move.sh": { text: "echo move\n", mode: "755" },
    });

    const run = await runClew(["-p", "-r", sessionId, "--rewind-to", "1", "--output-format", "json"], { cwd: space.dir, configDir: space.configDir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown> & { files: Record<string, string[]> };
    for (const list of Object.values(result.files)) list.sort();
    expect(result).toEqual({
      type: "rewind",
      subtype: "success",
      is_error: false,
      session_id: sessionId,
      rewound_to: 1,
      prompt: "fix the second line",
      files: { restored: ["edit.txt", "gone.sh", "move.sh"], removed: ["hooked.txt", "sub/move.sh"], kept: ["mine.txt", "notes.md"] },
      conversation: { messages: 0 },
    });
    expect(state(space.dir, PATHS)).toEqual({ ...before, "notes.md": { text: "# notes\nwritten by hand\n", mode: "644" }, "mine.txt": { text: "mine, by hand\n", mode: "644" } });
    expect(existsSync(join(space.dir, "sub"))).toBe(false);
    expect(treeDigest(join(space.dir, ".git"))).toEqual(gitBefore);
    expect(gitOutput(space.dir, "status", "--porcelain")).toBe(" M notes.md\n?? mine.txt\n");

    // The conversation went back too: the next prompt is the first one the model sees.
    const next = await turn(space, ["-r", sessionId, "start over"], [reply().text("Starting over.")]);
    expect(next.json.session_id).toBe(sessionId);
    const request = next.fake.requests[0];
    expect(request && lastUserText(request)).toBe("start over");
    expect(withoutReminders(withoutCacheControl(request?.body.messages))).toEqual([{ role: "user", content: [{ type: "text", text: "start over" }] }]);
    expect(JSON.stringify(request?.body.messages)).toContain("The user rewound the conversation and the files to just before their prompt 1");
    expect(JSON.stringify(request?.body.messages)).toContain("kept as they are: mine.txt, notes.md");
    expect(next.fake.violations).toEqual([]);
  }, 120_000);

  test("--rewind-to 3 keeps the first two turns' work and conversation; text output says what was restored; a bad N names what exists", async () => {
    const space = project();
    const sessionId = await threeTurns(space);
    const bad = await runClew(["-p", "-r", sessionId, "--rewind-to", "7"], { cwd: space.dir, configDir: space.configDir });
    expect({ code: bad.code, stdout: bad.stdout, stderr: bad.stderr }).toEqual({ code: 1, stdout: "", stderr: "error: there is no checkpoint for prompt 7; this session has checkpoints for prompts 1 to 3 (N counts the session's prompts from 1).\n" });

    const run = await runClew(["-p", "-r", sessionId, "--rewind-to", "3"], { cwd: space.dir, configDir: space.configDir });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe([
      `Rewound session ${sessionId} to just before prompt 3 (“move move.sh into sub/”).`,
      "Restored 1 file: move.sh",
      "Removed 1 file created since: sub/move.sh",
      "Conversation rewound to before prompt 3 (10 messages kept).",
      "",
    ].join("\n"));
    expect(state(space.dir, ["edit.txt", "gone.sh", "move.sh", "sub/move.sh", "notes.md"])).toEqual({
      "edit.txt": { text: "first line\nsecond line, fixed\n", mode: "644" },
      "gone.sh": null,
      "move.sh": { text: "echo move\n", mode: "755" },
      "sub/move.sh": null,
      "notes.md": { text: "# notes\nwritten by hand\n", mode: "644" },
    });

    const next = await turn(space, ["-r", sessionId, "what did we do?"], [reply().text("We fixed a line and removed a file.")]);
    const sent = JSON.stringify(next.fake.requests[0]?.body.messages);
    expect(sent).toContain("fix the second line");
    expect(sent).toContain("remove gone.sh");
    expect(sent).not.toContain("move move.sh into sub/");
    expect(next.fake.violations).toEqual([]);

    // Prompts are counted on from the rewind: the new one is prompt 3, and nothing is left past it.
    const again = await runClew(["-p", "-r", sessionId, "--rewind-to", "4"], { cwd: space.dir, configDir: space.configDir });
    expect(again.stderr).toBe("error: there is no checkpoint for prompt 4; this session has checkpoints for prompts 1 to 3 (N counts the session's prompts from 1).\n");
  }, 120_000);

  test("--rewind-to is refused without -p, without a session, with a prompt, and for an unknown session", async () => {
    const space = project();
    const cases: Array<[string[], string]> = [
      [["-r", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "--rewind-to", "1"], "error: --rewind-to works with -p: clew -p -r <session id> --rewind-to N (in a session, /rewind or Esc Esc).\n"],
      [["-p", "--rewind-to", "1"], "error: --rewind-to needs the session to rewind: clew -p -r <session id> --rewind-to N (or -c for the latest).\n"],
      [["-p", "-r", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "--rewind-to", "1", "and then this"], 'error: --rewind-to rewinds the session and exits; it takes no prompt.\nRun the prompt afterwards: clew -p -r 3f2504e0-4f89-41d3-9a0c-0305e82c3301 "<prompt>".\n'],
      [["-p", "-r", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "--rewind-to", "1"], "No conversation found with session ID: 3f2504e0-4f89-41d3-9a0c-0305e82c3301\n"],
    ];
    for (const [args, stderr] of cases) {
      const run = await runClew(args, { cwd: space.dir, configDir: space.configDir });
      expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ args, code: 1, stdout: "", stderr });
    }
  }, 60_000);

  test("fileCheckpointingEnabled: false takes no checkpoints, and --rewind-to says there are none", async () => {
    const space = project();
    const settings = JSON.parse(readFileSync(join(space.configDir, "settings.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(space.configDir, "settings.json"), JSON.stringify({ ...settings, fileCheckpointingEnabled: false }));
    const first = await turn(space, ["remove gone.sh"], [reply().toolUse("Bash", { command: "rm gone.sh" }), reply().text("Removed.")]);
    const sessionId = String(first.json.session_id);
    const stored = Object.keys(treeDigest(join(space.configDir, "projects")));
    expect(stored.filter((path) => path.endsWith(".jsonl"))).toHaveLength(1);
    expect(stored.filter((path) => path.includes("checkpoints"))).toEqual([]);
    const run = await runClew(["-p", "-r", sessionId, "--rewind-to", "1"], { cwd: space.dir, configDir: space.configDir });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: "error: this session has no checkpoints to rewind to.\nCheckpoints are taken before each prompt unless fileCheckpointingEnabled is false.\n" });
    expect(existsSync(join(space.dir, "gone.sh"))).toBe(false);
  }, 60_000);
});
