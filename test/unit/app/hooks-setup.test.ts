// The session's hooks from real settings files: a headless start that is told when its first
// request is on its way collects them (and reports their problems and the untrusted-folder notice)
// only then, unless something asks about an event some hook could be for first; a start that may
// ask the user, or that has no such signal, collects and reports them up front.
import { describe, expect, test } from "bun:test";
import { setUpHooks, type HooksSetupInput } from "../../../src/app/hooks-setup.ts";
import type { LoadedSettings } from "../../../src/settings/types.ts";
import { layout } from "../settings/fixture.ts";

function project(): { loaded: LoadedSettings; file: string; projectDir: string; configDir: string } {
  const space = layout();
  const file = space.write(
    "project-claude.json",
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "WebFetch|WebSearch", hooks: [{ type: "command", command: "true" }] },
          { matcher: "Edit(", hooks: [{ type: "command", command: "true" }] },
        ],
        Notification: [{ hooks: [{ type: "command", command: "true" }] }],
      },
    }),
  );
  return { loaded: space.load({ trusted: false }), file, projectDir: space.startDir, configDir: space.configDir };
}

function input(setup: ReturnType<typeof project>, lines: string[], extra: Partial<HooksSetupInput> = {}): HooksSetupInput {
  return {
    loaded: setup.loaded,
    projectDir: setup.projectDir,
    env: {},
    common: () => ({ session_id: "s", transcript_path: "", cwd: setup.projectDir, permission_mode: "default" }),
    matchesRule: async () => false,
    report: (line) => lines.push(line),
    configDir: setup.configDir,
    ...extra,
  };
}

/** What a start that collects its hooks up front reports. */
async function upFront(setup: ReturnType<typeof project>): Promise<string[]> {
  const lines: string[] = [];
  await setUpHooks(input(setup, lines));
  return lines;
}

const untrusted = (setup: ReturnType<typeof project>) => `clew: hooks in ${setup.file} are not run: this folder is not trusted. To run them, run: clew trust ${JSON.stringify(setup.projectDir)}`;

describe("the session's hooks", () => {
  test("headless, told when the first request is out: nothing is collected or reported before it, the same lines come after it", async () => {
    const setup = project();
    const lines: string[] = [];
    const out = Promise.withResolvers<void>();
    const hooks = await setUpHooks(input(setup, lines, { startAfter: out.promise }));
    // What a start asks before its first request, about events no hook is for.
    expect([hooks?.engine.hasHooks("SessionStart"), hooks?.engine.hasHooks("UserPromptSubmit")]).toEqual([false, false]);
    expect(lines).toEqual([]);
    out.resolve();
    await out.promise;
    await Bun.sleep(0);
    const expected = await upFront(setup);
    expect(expected).toHaveLength(2);
    expect(expected[0]).toStartWith(`clew: ${setup.file}: hooks.PreToolUse[1].matcher "Edit(" is not a valid regular expression`);
    expect(expected[1]).toBe(untrusted(setup));
    expect(lines).toEqual(expected);
    expect([hooks?.engine.hasHooksFor?.("PreToolUse", "WebFetch"), hooks?.engine.hasHooksFor?.("PreToolUse", "Read"), hooks?.engine.hasHooks("Notification")]).toEqual([true, false, true]);
    expect(hooks?.config.hooks.map((hook) => [hook.event, hook.matcher])).toEqual([
      ["PreToolUse", "WebFetch|WebSearch"],
      ["PreToolUse", "Edit("],
      ["Notification", undefined],
    ]);
  });

  test("a question about an event some hook could be for collects them at once, with their lines", async () => {
    const setup = project();
    const lines: string[] = [];
    const hooks = await setUpHooks(input(setup, lines, { startAfter: new Promise<void>(() => undefined) }));
    expect(lines).toEqual([]);
    expect(hooks?.engine.hasHooksFor?.("PreToolUse", "WebSearch")).toBe(true);
    expect(lines).toEqual(await upFront(setup));
  });

  test("a session that ends before anything asked still reports the lines", async () => {
    const setup = project();
    const lines: string[] = [];
    const hooks = await setUpHooks(input(setup, lines, { startAfter: new Promise<void>(() => undefined) }));
    await hooks?.engine.close();
    expect(lines).toEqual(await upFront(setup));
  });

  test("without the signal, or with a question for the user, they are collected and reported up front", async () => {
    const setup = project();
    const plain = await upFront(setup);
    expect(plain).toHaveLength(2);
    const asked: string[] = [];
    const questions: Array<{ files: string[]; commands: string[] }> = [];
    await setUpHooks(input(setup, asked, { startAfter: new Promise<void>(() => undefined), approve: async (request) => (questions.push(request), "no") }));
    expect(questions).toEqual([{ files: [setup.file], commands: ["PreToolUse (WebFetch|WebSearch): true", "PreToolUse (Edit(): true", "Notification: true"] }]);
    expect(asked).toEqual(plain);
  });
});
