// When the terminal goes away (the tmux server is killed, an SSH link drops), clew exits within
// a few seconds wherever it was — at the prompt, or in the middle of a question — instead of
// spinning on a dead terminal.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

/** Processes whose working directory is `dir`. */
function processesIn(dir: string): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readlinkSync(`/proc/${entry}/cwd`) === dir ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

async function goneWithin(dir: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (processesIn(dir).length > 0 && Date.now() < deadline) await Bun.sleep(100);
  return processesIn(dir);
}

describe.skipIf(!hasTmux)("the terminal goes away", () => {
  test("at the prompt: clew exits", async () => {
    const server = await fake([]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    expect(processesIn(dir).length).toBeGreaterThan(0);
    terminal.kill();
    expect(await goneWithin(dir, 8_000)).toEqual([]);
  });

  test("during a question (an untrusted folder's hooks): clew exits", async () => {
    const server = await fake([]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("Run these hooks?");
    terminal.kill();
    expect(await goneWithin(dir, 8_000)).toEqual([]);
  });
});
