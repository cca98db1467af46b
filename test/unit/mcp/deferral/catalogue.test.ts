import { describe, expect, test } from "bun:test";
import { DeferralAnnouncer, deferredCatalogue } from "../../../../src/mcp/deferral/catalogue.ts";
import { builtin, mcpTool } from "./tools.ts";

const header =
  "These tools are deferred: their names are listed below, their input schemas are not loaded yet, so a direct call " +
  'fails validation. Load what you need with ToolSearch first: query "select:<name>" (several names separated by ' +
  "commas) loads tools by name, a few keywords search the names and descriptions.";

const a = mcpTool("alpha", "one", "One.");
const b = mcpTool("alpha", "two", "Two.");
const c = mcpTool("beta", "three", "Three.");
const tools = [builtin("Read"), a, b, c];

describe("deferredCatalogue", () => {
  test("names every deferred tool in tool order, then the instructions of their servers", () => {
    const text = deferredCatalogue(tools, new Set([c.name, a.name]), { alpha: "Use alpha for records.", beta: "  ", gamma: "Not deferred." });
    expect(text).toBe([header, "mcp__alpha__one", "mcp__beta__three", "", "Instructions from MCP server alpha:", "Use alpha for records."].join("\n"));
  });

  test("is empty when nothing is deferred", () => {
    expect(deferredCatalogue(tools, new Set())).toBe("");
  });
});

describe("DeferralAnnouncer", () => {
  test("announces the whole catalogue once, then nothing while the set is unchanged", () => {
    const announcer = new DeferralAnnouncer();
    const set = new Set([a.name, b.name]);
    expect(announcer.announce(tools, set)).toBe(deferredCatalogue(tools, set));
    expect(announcer.announce(tools, new Set([b.name, a.name]))).toBeUndefined();
  });

  test("later announces only what was added and removed", () => {
    const announcer = new DeferralAnnouncer();
    announcer.announce(tools, new Set([a.name, b.name]));
    expect(announcer.announce(tools, new Set([a.name, c.name]), { beta: "Beta knows things." })).toBe(
      [
        "More deferred tools are available through ToolSearch (schemas not loaded; load them before calling):",
        "mcp__beta__three",
        "",
        "Instructions from MCP server beta:",
        "Beta knows things.",
        "",
        "These deferred tools are no longer available; do not call them:",
        "mcp__alpha__two",
      ].join("\n"),
    );
    expect(announcer.announce([builtin("Read"), a], new Set([a.name]))).toBe(["These deferred tools are no longer available; do not call them:", "mcp__beta__three"].join("\n"));
  });

  test("nothing deferred at first: no reminder; reset repeats the whole catalogue", () => {
    const announcer = new DeferralAnnouncer();
    expect(announcer.announce(tools, new Set())).toBeUndefined();
    const set = new Set([a.name]);
    expect(announcer.announce(tools, set)).toStartWith("More deferred tools are available");
    announcer.reset();
    expect(announcer.announce(tools, set)).toBe(deferredCatalogue(tools, set));
  });
});
