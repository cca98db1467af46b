// A dumb terminal or a screen reader (TERM=dumb, CLEW_SCREEN_READER=1) in a real terminal (tmux):
// the interactive session still takes prompts and shows answers, but writes plain lines — no
// escape sequences (no colour, no cursor movement or redraw) and no braille spinner — so a reader
// is not flooded by redraws; with an ordinary TERM the same session does draw.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { reply } from "../fake-anthropic/index.ts";
import { hasTmux, rawLogPath, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();
const BRAILLE = /[\u2800-\u28FF]/;

async function session(env: Record<string, string>) {
  const server = await fake([reply().text("Plain answer here.")]);
  const { dir, configDir } = workspace();
  const log = rawLogPath(dir);
  const terminal = open({ cwd: dir, configDir, baseURL: server.url, rawLog: log, noColor: false, env });
  await terminal.waitFor(">", "the prompt");
  terminal.type("hi");
  terminal.keys("Enter");
  await terminal.waitFor("Plain answer here.");
  terminal.kill();
  return existsSync(log) ? readFileSync(log, "utf8") : "";
}

describe.skipIf(!hasTmux)("plain terminal output", () => {
  test("TERM=dumb and CLEW_SCREEN_READER=1: the answer, in plain lines without escape sequences or spinner frames", async () => {
    const envs: Array<Record<string, string>> = [{ TERM: "dumb" }, { CLEW_SCREEN_READER: "1" }];
    for (const env of envs) {
      const raw = await session(env);
      expect(raw).toContain("Plain answer here.");
      expect({ env, escapes: raw.includes("\x1b["), spinner: BRAILLE.test(raw) }).toEqual({ env, escapes: false, spinner: false });
    }
  });

  test("an ordinary terminal does draw (the check above would see it)", async () => {
    const raw = await session({});
    expect(raw.includes("\x1b[")).toBe(true);
  });
});
