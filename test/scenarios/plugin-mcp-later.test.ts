// An installed plugin's MCP servers when the run does not wait for them (MCP_CONNECTION_NONBLOCKING),
// against the compiled binary, on a warm start (the stored record): init lists the server pending
// (and one with a blank URL disabled, with why), the first request goes out, then the server is
// defined from the record and started — while the run waits for the default, it is offered at once.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolNames, type FakeServer, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { parseFrames, systemFrames } from "../helpers/scenario.ts";
import { FIXTURES } from "../integration/mcp-helpers.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("an installed plugin's MCP servers, not waited for", () => {
  test("pending in init, started after the first request; waited for, offered in it", async () => {
    const configDir = tempDirectory("clew-config-");
    const project = writeWorkspace({ "a.txt": "a\n" });
    const started = join(project, "fx-started");
    const market = writeWorkspace({
      ".claude-plugin/marketplace.json": JSON.stringify({ name: "acme", owner: { name: "Acme" }, plugins: [{ name: "kit", source: "./kit" }] }),
      "kit/.claude-plugin/plugin.json": JSON.stringify({ name: "kit", version: "1.0.0" }),
      "kit/.mcp.json": JSON.stringify({
        mcpServers: {
          fx: { command: "sh", args: ["-c", `echo started > '${started}'; exec bun '${join(FIXTURES, "sdk-server.ts")}'`] },
          nowhere: { type: "http", url: "" },
        },
      }),
    });
    expect((await runClew(["plugin", "marketplace", "add", market], { cwd: project, configDir })).code).toBe(0);
    expect((await runClew(["plugin", "install", "kit@acme"], { cwd: project, configDir })).code).toBe(0);

    // Waited for (the default): the cold start writes the record, and the server's tool is in the first request.
    server = await startFakeAnthropic({ script: [reply().text("ready")] });
    const waited = await runClew(["-p", "hi"], { cwd: project, baseURL: server.url, configDir });
    expect(waited.code).toBe(0);
    expect(toolNames(server.requests[0] as RecordedRequest)).toContain("mcp__plugin_kit_fx__echo");
    await server.close();

    // Not waited for, warm: nothing of the server before the first request; it starts after.
    rmSync(started, { force: true });
    server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "sleep 1" }), reply().text("done")] });
    const run = await runClew(["-p", "hi", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], { cwd: project, baseURL: server.url, configDir, env: { MCP_CONNECTION_NONBLOCKING: "1" } });
    expect(run.code).toBe(0);
    const init = systemFrames(parseFrames(run.stdout), "init")[0] as unknown as { mcp_servers: Array<{ name: string; status: string }> };
    expect(init.mcp_servers).toEqual([
      { name: "plugin_kit_fx", status: "pending" },
      { name: "plugin_kit_nowhere", status: "disabled" },
    ]);
    expect(toolNames(server.requests[0] as RecordedRequest)).not.toContain("mcp__plugin_kit_fx__echo");
    expect(existsSync(started)).toBe(true);
  }, 90_000);
});
