// A session that never fetches an HTML page loads none of WebFetch's HTML libraries: clew is
// built as its binary is (same options, code splitting on). The libraries must be in no chunk —
// only in their compressed bundle (scripts/cold-modules.ts) — and the module importing that bundle
// must be reachable from the entry point only through WebFetch's `await import()` of
// html-markdown.ts; otherwise their cost would land on every start or in the binary's bytecode.
import { describe, expect, test } from "bun:test";
import { HTML_PACKAGES, htmlLibraryReach } from "../../scripts/bench/web.ts";

describe("WebFetch's HTML libraries load lazily", () => {
  test("only the dynamic import of html-markdown.ts reaches them", async () => {
    const reach = await htmlLibraryReach();
    expect(reach.reachableOtherwise).toEqual([]);
    // Guards against a walk that finds nothing: the fetch has its chunk and the bundle holds the libraries.
    expect(reach.fetchChunks.length).toBe(1);
    expect(reach.libraryBytes).toBeGreaterThan(300_000);
    expect(HTML_PACKAGES).toEqual(["linkedom", "turndown", "@mozilla/readability", "@joplin/turndown-plugin-gfm"]);
  }, 60_000);
});
