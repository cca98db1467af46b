// The one test command (README, CI): builds dist/clew (scenario and e2e tests run the compiled
// binary), runs every test with `bun test`, and ends with the line `N passed, N failed`.
import { existsSync } from "node:fs";

// The MCP tests start real servers from the npm registry; a fresh clone installs them once.
if (!existsSync("test/mcp-servers/node_modules")) {
  const install = Bun.spawnSync(["bun", "install", "--frozen-lockfile"], { cwd: "test/mcp-servers", stdout: "inherit", stderr: "inherit" });
  if (install.exitCode !== 0) console.error("note: the test MCP servers (test/mcp-servers) could not be installed; the MCP tests that start them will fail");
}
// The GitHub Action's packages (@actions/core, @github/local-action for its test), likewise.
if (!existsSync("action/node_modules")) {
  const install = Bun.spawnSync(["bun", "install", "--frozen-lockfile"], { cwd: "action", stdout: "inherit", stderr: "inherit" });
  if (install.exitCode !== 0) console.error("note: the action's packages (action/) could not be installed; the action's tests will fail");
}
// The Claude Agent SDK, which test/e2e/agent-sdk.test.ts drives clew with.
if (existsSync("test/agent-sdk/package.json") && !existsSync("test/agent-sdk/node_modules")) {
  const install = Bun.spawnSync(["bun", "install", "--frozen-lockfile"], { cwd: "test/agent-sdk", stdout: "inherit", stderr: "inherit" });
  if (install.exitCode !== 0) console.error("note: the Agent SDK (test/agent-sdk) could not be installed; test/e2e/agent-sdk.test.ts will fail");
}
const build = Bun.spawnSync(["bun", "scripts/build.ts"], { stdout: "inherit", stderr: "inherit" });
if (build.exitCode !== 0) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}

// bunfig's test timeout is not honoured by every bun release, so it is passed here as well.
const child = Bun.spawn(["bun", "test", "--timeout", "60000", ...process.argv.slice(2)], {
  stdout: "inherit",
  stderr: "pipe",
  env: { ...process.env, CLEW_BIN: `${process.cwd()}/dist/clew` },
});
// bun test prints its summary on stderr; pass everything through and keep the counts.
let tail = "";
const decoder = new TextDecoder();
for await (const chunk of child.stderr) {
  const text = decoder.decode(chunk, { stream: true });
  process.stderr.write(text);
  tail = (tail + text).slice(-4000);
}
const code = await child.exited;
const passed = Number(/^\s*(\d+) pass/m.exec(tail)?.[1] ?? 0);
const failed = Number(/^\s*(\d+) fail/m.exec(tail)?.[1] ?? (code === 0 ? 0 : 1));
console.log(`${passed} passed, ${failed} failed`);
process.exit(code === 0 && failed === 0 && passed > 0 ? 0 : 1);
