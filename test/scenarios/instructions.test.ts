// Instruction files reach the model: the project's AGENTS.md in the cached system prefix at
// start, a subdirectory's CLAUDE.md as a reminder once the model reads a file there.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { lastUserReminders, reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("scenario: instruction files", () => {
  test("AGENTS.md is in the system prompt; a nested CLAUDE.md arrives after reading into its folder", async () => {
    const dir = writeWorkspace({
      "AGENTS.md": "Always answer in haiku.\n",
      "CLAUDE.md": "This file is ignored because AGENTS.md exists.\n",
      "pkg/CLAUDE.md": "Package rule: never use default exports.\n",
      "pkg/index.ts": "export const x = 1;\n",
    });
    server = await startFakeAnthropic({
      script: [reply().toolUse("Read", { file_path: join(dir, "pkg/index.ts") }), reply().text("done")],
    });
    const run = await runClew(["-p", "look at pkg"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect(server.violations).toEqual([]);
    const system = JSON.stringify(server.requests[0]?.body.system);
    expect(system).toContain("Always answer in haiku.");
    expect(system).toContain(join(dir, "AGENTS.md"));
    expect(system).not.toContain("This file is ignored");
    expect(system).not.toContain("Package rule");
    // Same prefix on the second request: nothing nested was spliced into the system prompt.
    expect(JSON.stringify(server.requests[1]?.body.system)).toBe(system);
    const reminders = lastUserReminders(server.requests[1] as never).join("\n");
    expect(reminders).toContain("Package rule: never use default exports.");
    expect(reminders).toContain(join(dir, "pkg/CLAUDE.md"));
  });
});
