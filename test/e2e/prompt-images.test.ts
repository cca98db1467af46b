// Images in a prompt typed into a real terminal: `@shot.png` and a dragged-in path (typed the way
// terminals paste it, spaces escaped) are each shown as one line with their size, and reach the
// model as image blocks after the prompt.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, type FakeServer } from "../fake-anthropic/index.ts";
import { pngBytes } from "../helpers/notebooks.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

async function attachTwo(): Promise<{ server: FakeServer; shot: Buffer; dropped: Buffer; screen: string }> {
  const server = await fake([reply().text("Two images seen.")]);
  const { dir, configDir } = workspace();
  const shot = pngBytes(64, 48);
  const dropped = pngBytes(30, 20);
  writeFileSync(join(dir, "shot.png"), shot);
  mkdirSync(join(dir, "Desktop"));
  writeFileSync(join(dir, "Desktop", "Screen Shot.png"), dropped);
  const terminal = open({ cwd: dir, configDir, baseURL: server.url });
  await terminal.waitFor("/help for help");
  terminal.type(`compare @shot.png with ${join(dir, "Desktop", "Screen\\ Shot.png")}`);
  terminal.keys("Enter");
  await terminal.waitFor("Two images seen.");
  return { server, shot, dropped, screen: terminal.screen() };
}

describe.skipIf(!hasTmux)("images in a typed prompt", () => {
  test("an @-mentioned and a dragged-in image are each shown as one line with their size", async () => {
    const { shot, dropped, screen } = await attachTwo();
    expect(screen).toContain(`⎿ Attached shot.png (64×48 px, ${shot.length} B)`);
    expect(screen).toContain(`⎿ Attached Desktop/Screen Shot.png (30×20 px, ${dropped.length} B)`);
  });

  test("both images reach the model as image blocks after the prompt", async () => {
    const { server, shot, dropped } = await attachTwo();
    const messages = (server.requests.at(-1)?.body.messages ?? []) as Array<{ content: Array<{ type: string; source?: unknown }> }>;
    const images = (messages.at(-1)?.content ?? []).filter((block) => block.type === "image").map((block) => block.source);
    expect(images).toEqual([
      { type: "base64", media_type: "image/png", data: shot.toString("base64") },
      { type: "base64", media_type: "image/png", data: dropped.toString("base64") },
    ]);
  });
});

describe.skipIf(!hasTmux)("a typed @mention of a Read-denied file", () => {
  test("is not attached: the screen says why and the file's contents reach no request", async () => {
    const server = await fake([reply().text("Nothing attached.")]);
    const { dir, configDir } = workspace();
    writeFileSync(join(dir, ".env"), "API_TOKEN=canary-7731\n");
    mkdirSync(join(dir, ".clew"));
    writeFileSync(join(dir, ".clew", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(./.env)"] } }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("what is in @.env?");
    terminal.keys("Enter");
    await terminal.waitFor("Nothing attached.");
    expect(terminal.screen()).toContain("⎿ @.env: not attached, a Read deny rule covers it");
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain("canary-7731");
  });
});
