// The session's rewind API (what `/rewind` and the SDK's `rewind_files` call) across working
// directories, in this process against the real session, tools, files and git (only the model is
// faked): a session opened with `--add-dir OTHER` lists each turn's changes in both folders,
// rewind_files' dry run names OTHER's files by absolute path and changes nothing, and the rewind
// puts both folders back while a file edited by hand in OTHER is kept.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/app/bootstrap.ts";
import { rewindFilesAnswer } from "../../src/app/session-rewind.ts";
import { parseArgs } from "../../src/cli/args.ts";
import { sessionFlags } from "../../src/cli/session-flags.ts";
import { readEnvironment } from "../../src/settings/paths.ts";
import { reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { clewEnv, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "../scenarios/workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const quiet = () => undefined;

describe("Session.rewindFiles across --add-dir folders", () => {
  test("rewind_files names the added folder's files by absolute path; the dry run changes nothing; the rewind restores both folders and keeps a hand edit", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const other = writeWorkspace({ "o.txt": "other\n", "hand.txt": "hand\n" });
    const configDir = tempDirectory("clew-rewind-config-");
    server = await startFakeAnthropic({
      script: [
        reply().toolUse("Bash", { command: "echo one > a.txt" }),
        reply().text("One."),
        reply().toolUse("Bash", { command: `rm ${join(other, "o.txt")} && echo new > ${join(other, "new.txt")}` }),
        reply().text("Two."),
      ],
    });
    const env = readEnvironment(clewEnv({ cwd: dir, configDir, baseURL: server.url }), dir);
    const options = parseArgs(["-p", "--permission-mode", "bypassPermissions", "--add-dir", other]);
    const reports: string[] = [];
    const session = await openSession({ ...sessionFlags(options, env, "0.0.0-test"), persist: true, report: (line) => reports.push(line) });
    const signal = new AbortController().signal;
    await session.runTurn("first", quiet, signal, { messageId: "host-1" });
    // A dry run waits for the end of the turn to be recorded: what the user does next is theirs.
    expect((await session.rewindFiles("host-1", { dryRun: true })).files).toEqual({ restored: ["a.txt"], removed: [], kept: [] });
    writeFileSync(join(other, "hand.txt"), "hand, edited\n");
    await session.runTurn("second", quiet, signal, { messageId: "host-2" });
    expect(reports).toEqual([]);
    expect((await session.rewindPoints()).map((point) => [point.prompt, point.text, point.changes])).toEqual([
      [1, "first", { files: 1, added: 1, removed: 1 }],
      [2, "second", { files: 2, added: 1, removed: 1 }],
    ]);

    const answer = (id: string, dryRun: boolean) => rewindFilesAnswer((target, opts) => session.rewindFiles(target, opts), id, dryRun);
    expect(await answer("host-1", true)).toEqual({ canRewind: true, filesChanged: ["a.txt", join(other, "o.txt"), join(other, "new.txt")], filesKept: [join(other, "hand.txt")] });
    expect(existsSync(join(other, "o.txt"))).toBe(false);

    expect(await session.rewindFiles("host-1")).toEqual({ prompt: 1, text: "first", scope: "code", dryRun: false, files: { restored: ["a.txt", join(other, "o.txt")], removed: [join(other, "new.txt")], kept: [join(other, "hand.txt")] } });
    expect([readFileSync(join(dir, "a.txt"), "utf8"), readFileSync(join(other, "o.txt"), "utf8"), existsSync(join(other, "new.txt")), readFileSync(join(other, "hand.txt"), "utf8")]).toEqual(["alpha\n", "other\n", false, "hand, edited\n"]);
    await session.close();
  }, 60_000);
});
