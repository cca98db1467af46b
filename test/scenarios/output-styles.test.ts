// Output styles against the compiled binary: `outputStyle` naming a built-in style or a Markdown
// file in the project's or the user's `output-styles/` folder puts the style after the shared first
// system block (which stays byte-identical) and is reported in stream-json's init; the project's
// file wins over the user's of the same name; an unknown name is reported and the default is used.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { requestAt } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type SystemBlock = { text: string };

async function run(files: Record<string, string>, userStyles: Record<string, string> = {}) {
  const fake = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
  const cwd = writeWorkspace(files);
  const configDir = tempDirectory("clew-config-");
  for (const [name, text] of Object.entries(userStyles)) {
    mkdirSync(join(configDir, "output-styles"), { recursive: true });
    writeFileSync(join(configDir, "output-styles", name), text);
  }
  const result = await runClew(["-p", "go", "--output-format", "stream-json", "--verbose"], { cwd, configDir, baseURL: fake.url });
  await fake.close();
  server = undefined;
  const system = requestAt(fake, 0).body.system as SystemBlock[];
  const init = JSON.parse(result.stdout.split("\n")[0] ?? "{}") as { output_style: string };
  return { code: result.code, stderr: result.stderr, first: system[0], text: system.map((block) => block.text).join("\n"), style: init.output_style, cwd };
}

const settings = (outputStyle: string) => ({ ".claude/settings.local.json": JSON.stringify({ outputStyle }) });
const PIRATE = "---\nname: Pirate\ndescription: Talks like a pirate\n---\nAnswer like a pirate. PROJECT-PIRATE-MARKER\n";

describe("output styles", () => {
  test("a built-in style joins the system prompt after the shared first block and is reported in init", async () => {
    const plain = await run({ "a.txt": "a\n" });
    const explanatory = await run(settings("Explanatory"));
    expect(explanatory.first).toEqual(plain.first);
    expect(explanatory.text).toContain("# Output style: Explanatory");
    expect(plain.text).not.toContain("# Output style:");
    expect([plain.style, explanatory.style]).toEqual(["default", "Explanatory"]);
  });

  test("a project's style file (any case of its name) wins over the user's of that name; a user's own style works anywhere", async () => {
    const userPirate = { "pirate.md": "---\nname: Pirate\n---\nUSER-PIRATE-MARKER\n", "haiku.md": "Answer in haiku. USER-HAIKU-MARKER\n" };
    const project = await run({ ...settings("pirate"), ".claude/output-styles/pirate.md": PIRATE }, userPirate);
    expect({ code: project.code, style: project.style }).toEqual({ code: 0, style: "Pirate" });
    expect(project.text).toContain("Answer like a pirate. PROJECT-PIRATE-MARKER");
    expect(project.text).not.toContain("USER-PIRATE-MARKER");
    const user = await run(settings("haiku"), userPirate);
    expect({ style: user.style, marker: user.text.includes("USER-HAIKU-MARKER") }).toEqual({ style: "haiku", marker: true });
  });

  test("an unknown style is reported with its file and what there is; the default is used", async () => {
    const result = await run(settings("Shakespearean"));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`clew: outputStyle "Shakespearean" (${join(result.cwd, ".claude/settings.local.json")}) is not an output style here; there are: default, Explanatory, Learning, Proactive, Concise.`);
    expect({ style: result.style, block: result.text.includes("# Output style:") }).toEqual({ style: "default", block: false });
  });
});
