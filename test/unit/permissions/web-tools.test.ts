// The gate for the web tools: WebFetch reads the built-in documentation hosts without asking (but
// deny and ask rules still win, and lookalike hosts are not covered), asks elsewhere with a
// host rule to save; WebSearch asks by default and saves its bare name.
import { beforeAll, describe, expect, test } from "bun:test";
import { isPreapprovedUrl } from "../../../src/permissions/preapproved-hosts.ts";
import type { PermissionCall } from "../../../src/permissions/types.ts";
import { decide, makeProject, type Project } from "./fixture.ts";

let project: Project;
beforeAll(() => {
  project = makeProject();
});

const fetchCall = (url: string): PermissionCall => ({ toolName: "WebFetch", access: "network", input: { url, prompt: "p" }, subject: url });
const searchCall = (query: string): PermissionCall => ({ toolName: "WebSearch", access: "network", input: { query }, subject: query });

describe("preapproved documentation hosts", () => {
  test.each([
    ["https://docs.python.org/3/library/json.html", true],
    ["http://developer.mozilla.org/en-US/docs/Web", true],
    ["https://DOCS.PYTHON.ORG./3/", true],
    ["https://github.com/anthropics", true],
    ["https://github.com/anthropics/claude-code/issues", true],
    ["https://github.com/anthropics-evil/x", false],
    ["https://github.com/other/repo", false],
    ["https://vercel.com/docs/functions", true],
    ["https://vercel.com/pricing", false],
    ["https://evil.docs.python.org/", false],
    ["https://docs.python.org.evil.com/", false],
    ["https://docs.python.org:8443/", false],
    ["https://user@docs.python.org/", false],
    ["ftp://docs.python.org/", false],
    ["not a url", false],
  ])("%s: %p", (url, preapproved) => {
    expect(isPreapprovedUrl(url)).toBe(preapproved);
  });

  test("a preapproved host is allowed without a rule, but deny and ask rules win", async () => {
    const url = "https://docs.python.org/3/library/json.html";
    expect(await decide({}, project, fetchCall(url))).toEqual({ behavior: "allow", reason: "Allowed: the host is one of the documentation sites WebFetch may read without asking." });
    expect((await decide({ deny: ["WebFetch(domain:docs.python.org)"] }, project, fetchCall(url))).behavior).toBe("deny");
    expect((await decide({ ask: ["WebFetch(domain:*.python.org)"] }, project, fetchCall(url))).behavior).toBe("ask");
    expect((await decide({}, project, fetchCall(url), "dontAsk")).behavior).toBe("allow");
  });

  test("other hosts ask, suggesting the host rule that 'don't ask again' saves", async () => {
    expect(await decide({}, project, fetchCall("https://blog.example.org/post?id=3"))).toEqual({
      behavior: "ask",
      waivable: true,
      reason: "WebFetch of https://blog.example.org/post?id=3 needs approval: no allow rule covers it.",
      suggestions: ["WebFetch(domain:blog.example.org)"],
    });
    expect((await decide({ allow: ["WebFetch(domain:127.0.0.1)"] }, project, fetchCall("http://127.0.0.1:4321/x"))).behavior).toBe("allow");
  });
});

describe("WebSearch", () => {
  test("asks by default, suggesting the bare tool name; a bare allow rule allows it", async () => {
    expect(await decide({}, project, searchCall("zod 4"))).toEqual({
      behavior: "ask",
      waivable: true,
      reason: "WebSearch of zod 4 needs approval: no allow rule covers it.",
      suggestions: ["WebSearch"],
    });
    expect((await decide({ allow: ["WebSearch"] }, project, searchCall("zod 4"))).behavior).toBe("allow");
    expect((await decide({ allow: ["WebSearch"], deny: ["WebSearch"] }, project, searchCall("zod 4"))).behavior).toBe("deny");
  });
});
