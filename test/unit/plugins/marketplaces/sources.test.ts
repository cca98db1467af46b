import { describe, expect, test } from "bun:test";
import { cloneUrlOf, parseMarketplaceInput } from "../../../../src/plugins/marketplaces/sources.ts";

const parse = (input: string) => parseMarketplaceInput(input, "/work/project", "/home/dev");

describe("marketplace sources (§6.1)", () => {
  test("owner/repo is GitHub, with #ref or @ref pins, cloned over https", () => {
    expect(parse("northwind/claude-plugins")).toEqual({ ok: true, source: { source: "github", repo: "northwind/claude-plugins" } });
    expect(parse("northwind/claude-plugins#v3")).toEqual({ ok: true, source: { source: "github", repo: "northwind/claude-plugins", ref: "v3" } });
    expect(parse("northwind/claude-plugins@release/2")).toEqual({ ok: true, source: { source: "github", repo: "northwind/claude-plugins", ref: "release/2" } });
    expect(cloneUrlOf({ source: "github", repo: "northwind/claude-plugins" })).toBe("https://github.com/northwind/claude-plugins.git");
  });

  test("git URLs: https .git, github/gitlab without .git, Azure _git, ssh, scp form, file://, with refs", () => {
    expect(parse("https://git.example.com/team/market.git#stable")).toEqual({ ok: true, source: { source: "git", url: "https://git.example.com/team/market.git", ref: "stable" } });
    expect(parse("https://git.example.com/team/market.git@v2")).toEqual({ ok: true, source: { source: "git", url: "https://git.example.com/team/market.git", ref: "v2" } });
    expect(parse("https://github.com/o/r")).toEqual({ ok: true, source: { source: "git", url: "https://github.com/o/r" } });
    expect(parse("https://gitlab.com/group/sub/project")).toEqual({ ok: true, source: { source: "git", url: "https://gitlab.com/group/sub/project" } });
    expect(parse("https://dev.azure.com/org/proj/_git/market")).toEqual({ ok: true, source: { source: "git", url: "https://dev.azure.com/org/proj/_git/market" } });
    expect(parse("git@github.com:o/r.git#main")).toEqual({ ok: true, source: { source: "git", url: "git@github.com:o/r.git", ref: "main" } });
    expect(parse("git@git.example.com:team/market.git@v1")).toEqual({ ok: true, source: { source: "git", url: "git@git.example.com:team/market.git", ref: "v1" } });
    expect(parse("ssh://git@host:2222/srv/market.git")).toEqual({ ok: true, source: { source: "git", url: "ssh://git@host:2222/srv/market.git" } });
    expect(parse("file:///srv/market.git#pin")).toEqual({ ok: true, source: { source: "git", url: "file:///srv/market.git", ref: "pin" } });
  });

  test("other https URLs are marketplace.json downloads", () => {
    expect(parse("https://example.com/marketplace.json")).toEqual({ ok: true, source: { source: "url", url: "https://example.com/marketplace.json" } });
  });

  test("local folders and catalog files resolve against cwd and ~", () => {
    expect(parse("./market")).toEqual({ ok: true, source: { source: "directory", path: "/work/project/market" } });
    expect(parse("/abs/market")).toEqual({ ok: true, source: { source: "directory", path: "/abs/market" } });
    expect(parse("~/src/market")).toEqual({ ok: true, source: { source: "directory", path: "/home/dev/src/market" } });
    expect(parse("./cat/marketplace.json")).toEqual({ ok: true, source: { source: "file", path: "/work/project/cat/marketplace.json" } });
  });

  test("host.tld/path without a scheme and junk are refused with what to type instead", () => {
    const hosted = parse("gitlab.com/group/project");
    expect(hosted.ok).toBe(false);
    if (!hosted.ok) expect(hosted.error).toContain("https://gitlab.com/group/project");
    expect(parse("").ok).toBe(false);
    expect(parse("just-a-word").ok).toBe(false);
  });
});
