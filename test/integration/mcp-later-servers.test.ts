// Servers the manager knows by name before their definitions are read (enabled plugins' servers
// when the run does not wait for them), against real server processes: listed pending — or
// disabled when they cannot start — until connecting begins, then defined, connected and merged
// in name order with the servers defined from the start; a definition that cannot be read leaves
// each of them failed with the reason.
import { afterEach, describe, expect, test } from "bun:test";
import { McpManager, type McpRuntimeOptions } from "../../src/mcp/runtime/manager.ts";
import type { McpServerEntry } from "../../src/mcp/types.ts";
import { tempDir } from "../helpers/tool-session.ts";
import { baseEnv, fixture } from "./mcp-helpers.ts";

const CONNECT_TIMEOUT = 5_000;
let manager: McpManager | undefined;

afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

function options(servers: McpServerEntry[], later: McpRuntimeOptions["later"], startAfter: Promise<void>): McpRuntimeOptions {
  const dir = tempDir("clew-mcp-later-");
  return { servers, later, startAfter, projectDir: dir, roots: [dir], env: baseEnv(), connectTimeoutMs: CONNECT_TIMEOUT, toolTimeoutMs: 60_000, maxOutputTokens: 1000, clientVersion: "0.0.0-test" };
}

const plugin = (entry: McpServerEntry): McpServerEntry => ({ ...entry, scope: "plugin" });

describe("servers defined once connecting begins", () => {
  test("pending (or disabled) by name first, read only when connecting begins, then connected beside the others in name order", async () => {
    let release: () => void = () => undefined;
    const startAfter = new Promise<void>((resolve) => {
      release = resolve;
    });
    let loads = 0;
    const names = [
      { name: "plugin_p_zeta", scope: "plugin" as const },
      { name: "plugin_p_alpha", scope: "plugin" as const },
      { name: "plugin_p_blank", scope: "plugin" as const, disabled: 'MCP server "plugin_p_blank" has no URL configured (/p/.mcp.json)' },
    ];
    const load = async () => {
      loads += 1;
      return [plugin(fixture("plugin_p_zeta", "sdk-server.ts")), plugin(fixture("plugin_p_alpha", "sdk-server.ts"))];
    };
    let named = 0;
    manager = McpManager.start(options([fixture("middle", "sdk-server.ts")], {
      names: () => {
        named += 1;
        return names;
      },
      load,
    }, startAfter));
    // Named when first listed, not when the manager starts.
    expect(named).toBe(0);
    const pending = { stderrTail: [], toolCount: 0, promptCount: 0, resourceCount: 0 };
    expect(manager.states()).toEqual([
      { name: "middle", scope: "cli", status: "pending", ...pending },
      { name: "plugin_p_alpha", scope: "plugin", status: "pending", ...pending },
      { name: "plugin_p_blank", scope: "plugin", status: "disabled", error: 'MCP server "plugin_p_blank" has no URL configured (/p/.mcp.json)', ...pending },
      { name: "plugin_p_zeta", scope: "plugin", status: "pending", ...pending },
    ]);
    expect(manager.tools()).toEqual([]);
    manager.states();
    expect(named).toBe(1);
    await manager.settled(50);
    expect(loads).toBe(0);

    release();
    await manager.settled(CONNECT_TIMEOUT + 10_000);
    expect(loads).toBe(1);
    // The blank one had no definition to read, so it is no longer listed; the others connected.
    expect(manager.states().map((state) => [state.name, state.scope, state.status])).toEqual([
      ["middle", "cli", "connected"],
      ["plugin_p_alpha", "plugin", "connected"],
      ["plugin_p_zeta", "plugin", "connected"],
    ]);
    expect(manager.tools().some((tool) => tool.name === "mcp__plugin_p_alpha__echo")).toBe(true);
  }, 30_000);

  test("definitions that cannot be read: each server is listed failed with the reason, the others still connect", async () => {
    manager = McpManager.start(
      options(
        [fixture("steady", "sdk-server.ts")],
        {
          names: () => [{ name: "plugin_p_one", scope: "plugin" }],
          load: () => Promise.reject(new Error("the stored plugin record is gone")),
        },
        Promise.resolve(),
      ),
    );
    await manager.settled(CONNECT_TIMEOUT + 10_000);
    expect(manager.states().map((state) => ({ name: state.name, status: state.status, error: state.error }))).toEqual([
      { name: "plugin_p_one", status: "failed", error: 'MCP server "plugin_p_one" was not started: its definition could not be read (the stored plugin record is gone)' },
      { name: "steady", status: "connected", error: undefined },
    ]);
  }, 30_000);
});
