// A session that never fetches an HTML page loads none of WebFetch's HTML libraries: clew is
// built as its binary is (same options, code splitting on) and the chunk graph is walked from the
// entry point along every import except WebFetch's `await import()` of html-markdown.ts. If any
// static or other dynamic path reached linkedom, turndown, Readability or the GFM plugin, their
// cost would land on every start.
import { describe, expect, test } from "bun:test";
import { HTML_PACKAGES, htmlLibraryReach } from "../../scripts/bench/web.ts";

describe("WebFetch's HTML libraries load lazily", () => {
  test("only the dynamic import of html-markdown.ts reaches them", async () => {
    const reach = await htmlLibraryReach();
    expect(reach.reachableOtherwise).toEqual([]);
    // Guards against a walk that finds nothing: the libraries are there, in the fetch's own chunk.
    expect(reach.fetchChunks.length).toBe(1);
    expect(reach.libraryBytes).toBeGreaterThan(50_000);
    expect(HTML_PACKAGES).toEqual(["linkedom", "turndown", "@mozilla/readability", "@joplin/turndown-plugin-gfm"]);
  }, 60_000);
});
