// /add-dir in a real terminal: a folder outside the project becomes a working directory for the
// session (a Read there runs without asking, a sandboxed command may write there), the model
// hears of it in the next request, and `--remember` keeps it in the project's local settings.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolResults, type ScriptStep } from "../fake-anthropic/index.ts";
import { tempDirectory } from "../helpers/clew-process.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();
const hasBwrap = process.platform === "linux" && Bun.which("bwrap") !== null;

describe.skipIf(!hasTmux)("/add-dir", () => {
  test("a Read in the added folder runs without asking, and the model is told of the folder", async () => {
    const lib = realpathSync(tempDirectory("clew-add-dir-lib-"));
    writeFileSync(join(lib, "config.txt"), "LIB-CONTENT\n");
    const answer: ScriptStep = (request) => reply().text(toolResults(request)[0]?.text.includes("LIB-CONTENT") ? "READ-OK" : "READ-FAILED");
    const server = await fake([reply().toolUse("Read", { file_path: join(lib, "config.txt") }), answer]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type(`/add-dir ${lib} --remember`);
    terminal.keys("Enter");
    await terminal.waitFor("Kept for this project");
    expect(terminal.screen()).toContain(`Added ${lib} as a working directory for this session.`);
    terminal.type("read the lib config");
    terminal.keys("Enter");
    await terminal.waitFor("READ-OK");
    expect(terminal.screen()).not.toContain("Allow");
    const first = JSON.stringify(server.requests.find((request) => request.endpoint === "messages")?.body.messages);
    expect(first).toContain(`The user added ${lib} as a working directory`);
    const local = JSON.parse(readFileSync(join(dir, ".clew", "settings.local.json"), "utf8")) as { permissions?: { additionalDirectories?: string[] } };
    expect(local.permissions?.additionalDirectories).toEqual([lib]);
  });

  test("--remember keeps what the local settings held; the project folder itself is not added again", async () => {
    const lib = realpathSync(tempDirectory("clew-add-dir-lib-"));
    const server = await fake([reply().text("unused")]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".clew"));
    const local = join(dir, ".clew", "settings.local.json");
    writeFileSync(local, JSON.stringify({ model: "sonnet", permissions: { additionalDirectories: ["../other", 7] } }, null, 2));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type(`/add-dir ${lib} --remember`);
    terminal.keys("Enter");
    await terminal.waitFor("Kept for this project");
    expect(JSON.parse(readFileSync(local, "utf8"))).toEqual({ model: "sonnet", permissions: { additionalDirectories: ["../other", 7, lib] } });
    terminal.type("/add-dir .");
    terminal.keys("Enter");
    await terminal.waitFor("is the project folder");
    expect(terminal.screen()).toContain(`${realpathSync(dir)} is the project folder: it is a working directory already.`);
  });

  test.skipIf(!hasBwrap)("with the Bash sandbox on, a command may write in the added folder", async () => {
    const lib = realpathSync(tempDirectory("clew-add-dir-lib-"));
    const target = join(lib, "out.txt");
    const server = await fake([reply().toolUse("Bash", { command: `echo boxed > ${target}`, description: "Write in the lib" }), reply().text("Wrote it.")]);
    const { dir, configDir } = workspace();
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type(`/add-dir ${lib}`);
    terminal.keys("Enter");
    await terminal.waitFor("as a working directory for this session");
    terminal.type("write in the lib");
    terminal.keys("Enter");
    await terminal.waitFor("Wrote it.");
    const second = server.requests.filter((request) => request.endpoint === "messages")[1];
    expect(second && toolResults(second).map((result) => [result.isError, result.text.trim()])).toEqual([[false, "(no output)"]]);
    expect(readFileSync(target, "utf8")).toBe("boxed\n");
  });

  test("a path that is not a directory is refused with its name", async () => {
    const server = await fake([reply().text("unused")]);
    const { dir, configDir } = workspace();
    writeFileSync(join(dir, "file.txt"), "x");
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("/add-dir file.txt");
    terminal.keys("Enter");
    await terminal.waitFor("is not a directory");
    expect(terminal.screen()).toContain("/add-dir: file.txt is not a directory.");
    expect(server.requests.filter((request) => request.endpoint === "messages")).toEqual([]);
  });
});
