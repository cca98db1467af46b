import { describe, expect, test } from "bun:test";
import { DeferredToolIndex, nameWords } from "../../../../src/mcp/deferral/search.ts";
import { builtin, manyTools, mcpTool } from "./tools.ts";

const tools = [
  builtin("Read"),
  mcpTool("github", "create_issue", "Create a new issue in a GitHub repository."),
  mcpTool("github", "list_pull_requests", "List pull requests of a repository."),
  mcpTool("slack", "send_message", "Send a message to a Slack channel."),
  mcpTool("slack", "list_channels", "List the channels of the workspace."),
  mcpTool("jira", "createTicket", "Open a ticket; like an issue, but in Jira."),
];
const deferred = new Set(tools.slice(1).map((tool) => tool.name));
const index = new DeferredToolIndex(tools, deferred);

describe("nameWords", () => {
  test("splits MCP names, snake case and camelCase", () => {
    expect(nameWords("mcp__jira__createTicket")).toEqual(["mcp", "jira", "create", "ticket"]);
    expect(nameWords("list_pull-requests")).toEqual(["list", "pull", "requests"]);
  });
});

describe("DeferredToolIndex", () => {
  test("select: loads exact names in the order asked, by full or own name; unknown and loaded tools are left out", () => {
    expect(index.search("select:mcp__slack__send_message,mcp__github__create_issue")).toEqual(["mcp__slack__send_message", "mcp__github__create_issue"]);
    expect(index.search("select: list_channels , nope, Read")).toEqual(["mcp__slack__list_channels"]);
    expect(index.search("SELECT:MCP__SLACK__SEND_MESSAGE")).toEqual(["mcp__slack__send_message"]);
    expect(index.search("select:")).toEqual([]);
  });

  test("a bare exact name is a selection too", () => {
    expect(index.search("mcp__jira__createTicket")).toEqual(["mcp__jira__createTicket"]);
  });

  test("keywords rank name words over name parts over descriptions", () => {
    // "issue" is a name word of create_issue, only in the description of createTicket.
    expect(index.search("issue")).toEqual(["mcp__github__create_issue", "mcp__jira__createTicket"]);
    expect(index.search("create")).toEqual(["mcp__github__create_issue", "mcp__jira__createTicket"]);
    expect(index.search("list", 1)).toEqual(["mcp__github__list_pull_requests"]);
    expect(index.search("weather")).toEqual([]);
  });

  test("+term keeps only tools whose name contains it, ranked by the other words", () => {
    expect(index.search("+slack list")).toEqual(["mcp__slack__list_channels"]);
    expect(index.search("+slack")).toEqual(["mcp__slack__send_message", "mcp__slack__list_channels"]);
    expect(index.search("+github issue")).toEqual(["mcp__github__create_issue"]);
  });

  test("max_results bounds keyword results (at least 1, at most 50)", () => {
    const big = new DeferredToolIndex(manyTools("big", 80, 60), new Set(manyTools("big", 80, 60).map((tool) => tool.name)));
    expect(big.size).toBe(80);
    expect(big.search("record", 3)).toEqual(["mcp__big__tool_0", "mcp__big__tool_1", "mcp__big__tool_2"]);
    expect(big.search("record", 0)).toHaveLength(1);
    expect(big.search("record", 500)).toHaveLength(50);
    expect(big.search("record")).toHaveLength(5);
  });

  test("update replaces what can be found", () => {
    const moving = new DeferredToolIndex(tools, deferred);
    moving.update(tools, new Set(["mcp__slack__send_message"]));
    expect(moving.size).toBe(1);
    expect(moving.search("select:mcp__github__create_issue")).toEqual([]);
    expect(moving.search("send")).toEqual(["mcp__slack__send_message"]);
  });
});
