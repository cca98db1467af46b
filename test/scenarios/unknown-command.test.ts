// A mistyped slash command in `clew -p` (Claude Code issue #88387: `claude -p "/deplyo prod"` is sent
// to the model as text and the CI job "succeeds"): against the compiled binary, the typo stops the run
// before any request with a suggestion, while skills, paths, --disable-slash-commands and MCP prompts
// keep their behaviour.
import { afterEach, describe, expect, test } from "bun:test";
import { lastUserText, reply, startFakeAnthropic, type FakeServer, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, type ClewRun } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DEPLOY_SKILL = "---\nname: deploy\ndescription: Deploys the app\n---\nDeploy to $ARGUMENTS. DEPLOY-SKILL-MARKER\n";

const workspace = () => writeWorkspace({ ".claude/skills/deploy/SKILL.md": DEPLOY_SKILL });

async function run(args: string[], options: { cwd?: string; stdin?: string } = {}): Promise<{ result: ClewRun; sent: RecordedRequest[] }> {
  const fake = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
  const result = await runClew(["-p", ...args], { cwd: options.cwd ?? workspace(), baseURL: fake.url, configDir: tempDirectory("clew-config-"), ...(options.stdin !== undefined ? { stdin: options.stdin } : {}) });
  return { result, sent: fake.requests.filter((request) => request.endpoint === "messages") };
}

const SEND_AS_TEXT = 'To send a prompt that starts with "/" to the model as it is, begin it with another word, or pass --disable-slash-commands (which also turns skills and commands off).';

describe("scenario: an unknown slash command in -p", () => {
  test("a typo of a skill exits 1 before any request, naming the skill it is close to", async () => {
    const { result, sent } = await run(["/deplyo prod"]);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr, requests: sent.length }).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: unknown command /deplyo\nDid you mean /deploy?\n${SEND_AS_TEXT}\n`,
      requests: 0,
    });
  });

  test("the same from standard input, with json output: still a usage error, stdout empty", async () => {
    const { result, sent } = await run(["--output-format", "json"], { stdin: "/deplyo prod\n" });
    expect({ code: result.code, stdout: result.stdout, requests: sent.length }).toEqual({ code: 1, stdout: "", requests: 0 });
    expect(result.stderr).toStartWith("error: unknown command /deplyo\nDid you mean /deploy?\n");
  });

  test("the skill itself runs; a prefix of it is suggested; a name close to nothing gets no suggestion", async () => {
    const ok = await run(["/deploy prod"]);
    expect(ok.result.code).toBe(0);
    expect(lastUserText(ok.sent[0] as RecordedRequest)).toContain("Deploy to prod. DEPLOY-SKILL-MARKER");
    await server?.close();
    expect((await run(["/dep"])).result.stderr).toContain("error: unknown command /dep\nDid you mean /deploy?\n");
    await server?.close();
    const far = await run(["/frobnicate now"]);
    expect(far.result.stderr).toBe(`error: unknown command /frobnicate\n${SEND_AS_TEXT}\n`);
    await server?.close();
    // No skills folder at all: the check still holds (clew's own /compact is the only name).
    const bare = await run(["/compcat"], { cwd: tempDirectory("clew-empty-") });
    expect({ code: bare.result.code, requests: bare.sent.length }).toEqual({ code: 1, requests: 0 });
    expect(bare.result.stderr).toContain("Did you mean /compact?");
  });

  test("paths are prompts: an existing /tmp, and any first word with a second slash", async () => {
    for (const prompt of ["/tmp is full", "/no-such-dir/bin/foo crashes on start"]) {
      const { result, sent } = await run([prompt]);
      expect({ prompt, code: result.code, requests: sent.length }).toEqual({ prompt, code: 0, requests: 1 });
      expect(lastUserText(sent[0] as RecordedRequest)).toBe(prompt);
      await server?.close();
    }
  });

  test("what the hint says really sends the text; a leading space does not (the prompt is trimmed, as skills are)", async () => {
    const worded = await run(["Run /deplyo prod"]);
    expect(worded.result.code).toBe(0);
    expect(lastUserText(worded.sent[0] as RecordedRequest)).toBe("Run /deplyo prod");
    await server?.close();
    const disabled = await run(["/deplyo prod", "--disable-slash-commands"]);
    expect(disabled.result.code).toBe(0);
    expect(lastUserText(disabled.sent[0] as RecordedRequest)).toBe("/deplyo prod");
    await server?.close();
    const spaced = await run([" /deplyo prod"]);
    expect({ code: spaced.result.code, requests: spaced.sent.length }).toEqual({ code: 1, requests: 0 });
  });

  test("an interactive built-in says it works only in interactive clew", async () => {
    const { result, sent } = await run(["/help"]);
    expect({ code: result.code, requests: sent.length }).toEqual({ code: 1, requests: 0 });
    expect(result.stderr).toStartWith("error: /help works only in interactive clew, not with -p.\n");
  });

  test("an MCP prompt is the MCP layer's: sent as text with no server, refused by it with servers", async () => {
    const none = await run(["/mcp__x__y hi"]);
    expect(none.result.code).toBe(0);
    expect(lastUserText(none.sent[0] as RecordedRequest)).toBe("/mcp__x__y hi");
    await server?.close();
    const config = JSON.stringify({ mcpServers: { other: { command: "false" } } });
    const refused = await run(["/mcp__x__y hi", "--mcp-config", config]);
    expect({ code: refused.result.code, requests: refused.sent.length }).toEqual({ code: 1, requests: 0 });
    expect(refused.result.stderr).toContain("No connected MCP server offers the prompt /mcp__x__y");
    expect(refused.result.stderr).not.toContain("unknown command");
  }, 30_000);
});
