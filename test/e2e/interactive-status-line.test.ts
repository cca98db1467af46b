// The statusLine setting in a real terminal (tmux): its command gets the session's JSON on stdin
// and COLUMNS, its output shows under the prompt, it runs again after a turn (the cost and
// context it reads changed) and on a mode change; a project file's status line does not run in
// an untrusted folder, and disableAllHooks turns it off.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

/** A status line script that shows fields of its input and saves the last input it read. */
function statusScript(dir: string): string {
  const script = join(dir, "status.sh");
  writeFileSync(
    script,
    [
      "#!/bin/sh",
      `input=$(cat)`,
      `printf '%s' "$input" > "${join(dir, "last-input.json")}"`,
      `mode=$(printf '%s' "$input" | sed -n 's/.*"permission_mode":"\\([a-zA-Z]*\\)".*/\\1/p')`,
      `turns=$(printf '%s' "$input" | sed -n 's/.*"total_output_tokens":\\([0-9]*\\).*/\\1/p')`,
      `echo "STATUS cols=$COLUMNS mode=$mode out=$turns"`,
    ].join("\n"),
    { mode: 0o755 },
  );
  return script;
}

describe.skipIf(!hasTmux)("statusLine", () => {
  test("shows the command's output under the prompt and runs again after a turn and a mode change", async () => {
    const server = await fake([reply().text("Hello there.")]);
    const { dir, configDir } = workspace();
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ statusLine: { type: "command", command: statusScript(dir) } }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: 100 });
    await terminal.waitFor("STATUS cols=100 mode=default out=0", "the first status line");
    const input = JSON.parse(readFileSync(join(dir, "last-input.json"), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({ cwd: dir, workspace: { current_dir: dir, project_dir: dir }, output_style: { name: "default" }, permission_mode: "default" });
    expect(typeof input.session_id).toBe("string");
    expect((input.model as { id: string }).id).toMatch(/^claude-/);

    terminal.type("hi");
    terminal.keys("Enter");
    await terminal.waitFor("Hello there.");
    // The reply's output tokens are in what the next run read.
    await terminal.waitFor(/STATUS cols=100 mode=default out=[1-9]/, "the status line after the turn");
    terminal.keys("BTab");
    await terminal.waitFor(/STATUS cols=100 mode=acceptEdits out=[1-9]/, "the status line after shift+tab");
  });

  test("a project file's status line waits for trust; disableAllHooks turns a user one off", async () => {
    const server = await fake([]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".claude"), { recursive: true });
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ statusLine: { type: "command", command: statusScript(dir) } }));
    const untrusted = open({ cwd: dir, configDir, baseURL: server.url, width: 100 });
    const screen = await untrusted.waitFor("statusLine is not run: this folder is not trusted", "the notice");
    expect(screen).not.toContain("STATUS cols=");
    untrusted.kill();

    const other = workspace();
    writeFileSync(join(other.configDir, "settings.json"), JSON.stringify({ disableAllHooks: true, statusLine: { type: "command", command: statusScript(other.dir) } }));
    const disabled = open({ cwd: other.dir, configDir: other.configDir, baseURL: server.url, width: 100 });
    const off = await disabled.waitFor("statusLine is not run: disableAllHooks is set", "the notice");
    expect(off).not.toContain("STATUS cols=");
  });
});

describe.skipIf(!hasTmux)("companyAnnouncements", () => {
  test("one of them is shown at start", async () => {
    const server = await fake([]);
    const { dir, configDir } = workspace();
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ companyAnnouncements: ["Acme: deploys are frozen until Monday."] }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: 100 });
    await terminal.waitFor("Acme: deploys are frozen until Monday.", "the announcement");
  });
});
