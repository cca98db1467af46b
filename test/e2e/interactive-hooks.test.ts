// An untrusted folder's project hooks in a real terminal: clew asks before running them; "don't
// ask again" is remembered for that exact configuration, and a changed hook asks again.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

function projectHooks(dir: string, marker: string): void {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  const hooks = { UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] };
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ hooks }));
}

describe.skipIf(!hasTmux)("project hooks in an untrusted folder", () => {
  test("asked once per hook configuration; No skips them; a changed hook asks again", async () => {
    const server = await fake([reply().text("one"), reply().text("two"), reply().text("three")]);
    const { dir, configDir } = workspace();
    projectHooks(dir, "first-ran");

    // Yes, and don't ask again: the hook runs.
    let terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("Run these hooks?");
    expect(terminal.screen()).toContain("UserPromptSubmit: touch first-ran");
    terminal.keys("Down");
    terminal.keys("Enter");
    await terminal.waitFor("/help for help");
    terminal.type("hello");
    terminal.keys("Enter");
    await terminal.waitFor("one");
    expect(existsSync(join(dir, "first-ran"))).toBe(true);
    terminal.kill();

    // The same configuration again: no question.
    terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    expect(terminal.screen()).not.toContain("Run these hooks?");
    terminal.kill();

    // A changed hook asks again; No leaves it unrun.
    projectHooks(dir, "second-ran");
    terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("Run these hooks?");
    terminal.keys("Down");
    terminal.keys("Down");
    terminal.keys("Enter");
    await terminal.waitFor("are not run: this folder is not trusted");
    terminal.type("hello again");
    terminal.keys("Enter");
    await terminal.waitFor("two");
    expect(existsSync(join(dir, "second-ran"))).toBe(false);
  });

  test("Notification hooks fire when an approval is left waiting", async () => {
    const server = await fake([reply().toolUse("Bash", { command: "make deploy", description: "Deploy" }), reply().text("done")]);
    const { dir, configDir } = workspace();
    const hooks = { Notification: [{ matcher: "permission_prompt", hooks: [{ type: "command", command: `cat > ${join(dir, "notified.json")}` }] }] };
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ hooks }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("deploy");
    terminal.keys("Enter");
    await terminal.waitFor("Run this command?");
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(dir, "notified.json")) && Date.now() < deadline) await Bun.sleep(200);
    const payload = JSON.parse(await Bun.file(join(dir, "notified.json")).text()) as Record<string, unknown>;
    expect(payload).toMatchObject({ hook_event_name: "Notification", notification_type: "permission_prompt", message: "Claude needs your permission to use Bash" });
  });
});
