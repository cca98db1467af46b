// Prompt-cache behaviour on a 30-step read/grep task, measured by the fake's cache simulation
// (a hit when the bytes up to a breakpoint equal an earlier request's): the first request writes
// the whole fixed prefix, later requests read nearly everything, and no request changes a byte
// before its predecessor's last breakpoint.
import { afterEach, describe, expect, test } from "bun:test";
import { canonicalJson, startFakeAnthropic, tokensOfText, type FakeServer, type Json, type JsonObject } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { READ_GREP_ANSWER, readGrepScript, readGrepWorkspace } from "./read-grep-task.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The prompt as the cache sees it: one canonical string per block, and where the breakpoints are. */
function promptBlocks(body: JsonObject): { blocks: string[]; lastBreakpoint: number } {
  const blocks: string[] = [];
  let lastBreakpoint = -1;
  const add = (block: Json | undefined) => {
    blocks.push(canonicalJson(block));
    const control = block && typeof block === "object" && !Array.isArray(block) ? block.cache_control : undefined;
    if (control) lastBreakpoint = blocks.length - 1;
  };
  for (const tool of (body.tools as Json[]) ?? []) add(tool);
  for (const block of (body.system as Json[]) ?? []) add(block);
  for (const message of (body.messages as JsonObject[]) ?? []) {
    for (const block of message.content as Json[]) add(block);
    blocks.push(`--${String(message.role)}--`);
  }
  return { blocks, lastBreakpoint };
}

describe("scenario: prompt caching", () => {
  test("30 read/grep/edit steps: prefix written once, later input read from cache, earlier bytes never change", async () => {
    const dir = readGrepWorkspace();
    server = await startFakeAnthropic({ script: readGrepScript(dir) });
    const run = await runClew(["-p", "audit the handlers", "--permission-mode", "bypassPermissions"], {
      cwd: dir,
      baseURL: server.url,
      configDir: tempDirectory("clew-config-"),
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(READ_GREP_ANSWER);
    expect(server.violations).toEqual([]);
    const requests = server.requests.filter((request) => request.endpoint === "messages");
    expect(requests.length).toBe(30);

    const first = requests[0]?.body as JsonObject;
    const prefixTokens = [...(first.tools as Json[]), ...(first.system as Json[])].reduce((sum: number, block) => sum + tokensOfText(canonicalJson(block)), 0);
    expect(requests[0]?.cache?.cacheCreationInputTokens).toBeGreaterThanOrEqual(prefixTokens);

    let read = 0;
    let total = 0;
    for (const request of requests.slice(1)) {
      read += request.cache?.cacheReadInputTokens ?? 0;
      total += request.cache?.totalTokens ?? 0;
    }
    // The bar: at least 95% of all input after the first request is read from cache.
    expect(read / total).toBeGreaterThanOrEqual(0.95);

    for (let i = 1; i < requests.length; i++) {
      const before = promptBlocks(requests[i - 1]?.body as JsonObject);
      const after = promptBlocks(requests[i]?.body as JsonObject);
      expect(after.blocks.slice(0, before.lastBreakpoint + 1)).toEqual(before.blocks.slice(0, before.lastBreakpoint + 1));
      // Every request after the first reads everything its predecessor cached.
      expect(requests[i]?.cache?.cacheReadInputTokens).toBeGreaterThan(0);
    }
  });

  test("the fixed prefix up to the first breakpoint is identical across projects and days", async () => {
    const systems: string[] = [];
    for (const name of ["alpha", "beta"]) {
      const dir = readGrepWorkspace();
      server = await startFakeAnthropic({ script: readGrepScript(dir).slice(-1) });
      await runClew(["-p", `hello from ${name}`], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-"), env: { TZ: name === "alpha" ? "UTC" : "Pacific/Kiritimati" } });
      const body = server.requests[0]?.body as JsonObject;
      const { blocks } = promptBlocks(body);
      const firstBreakpoint = [...(body.tools as Json[]), ...(body.system as Json[])].findIndex(
        (block) => block && typeof block === "object" && !Array.isArray(block) && block.cache_control !== undefined,
      );
      systems.push(blocks.slice(0, firstBreakpoint + 1).join("\n"));
      await server.close();
      server = undefined;
    }
    expect(systems[0]).toBe(systems[1] as string);
  });
});
