// WebFetch's pure parts: URL checks and upgrade, redirect policy, secret redaction, proxy choice,
// content classification, cutting, and the page cache's lifetime.
import { describe, expect, test } from "bun:test";
import { cachedPage, PAGE_TTL_MS, rememberPage, type CachedPage } from "../../../src/tools/shared/web-cache.ts";
import { contentKind, cutText, decodeText } from "../../../src/tools/shared/web-content.ts";
import { proxyFor } from "../../../src/tools/shared/web-proxy.ts";
import { fetchableUrl, isLoopbackHost, isPermittedRedirect, redactUrl } from "../../../src/tools/shared/web-url.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { tempDir, toolSession } from "../../helpers/tool-session.ts";

function refused(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error.message;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("fetchable URLs", () => {
  test.each([
    ["http://example.com/a?b=1", "https://example.com/a?b=1"],
    ["https://example.com/", "https://example.com/"],
    ["http://localhost:3000/x", "http://localhost:3000/x"],
    ["http://api.localhost/x", "http://api.localhost/x"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/"],
    ["http://127.45.0.9/", "http://127.45.0.9/"],
    ["http://[::1]:9000/", "http://[::1]:9000/"],
    ["http://128.0.0.1/", "https://128.0.0.1/"],
    ["http://localhost.example.com/", "https://localhost.example.com/"],
  ])("%s is fetched as %s", (given, fetched) => {
    expect(fetchableUrl(given).href).toBe(fetched);
  });

  test("bad URLs are refused with the reason", () => {
    expect(refused(() => fetchableUrl("not a url"))).toBe('"not a url" is not a valid URL. Give a full URL such as https://example.com/page.');
    expect(refused(() => fetchableUrl("file:///etc/passwd"))).toBe("WebFetch fetches http and https URLs only, not file: (file:///etc/passwd).");
    expect(refused(() => fetchableUrl(`https://example.com/${"a".repeat(2000)}`))).toBe("The URL is 2020 characters long; WebFetch takes at most 2000.");
  });

  test("loopback hosts", () => {
    expect(["localhost", "LOCALHOST.", "a.b.localhost", "127.0.0.1", "127.255.1.2", "[::1]", "::1"].map(isLoopbackHost)).toEqual([true, true, true, true, true, true, true]);
    expect(["localhost.dev", "128.0.0.1", "10.0.0.1", "127.0.0", "example.com"].map(isLoopbackHost)).toEqual([false, false, false, false, false]);
  });
});

describe("redirects WebFetch follows by itself", () => {
  const from = new URL("https://docs.example.com/a");
  test.each([
    ["https://docs.example.com/b", true],
    ["/relative", true],
    ["https://www.docs.example.com/b", true],
    ["https://other.example.com/b", false],
    ["http://docs.example.com/b", false],
    ["https://docs.example.com:8443/b", false],
    ["https://user:pw@docs.example.com/b", false],
  ])("to %s: %p", (to, followed) => {
    expect(isPermittedRedirect(from, new URL(to, from))).toBe(followed);
  });
});

describe("secrets in URLs", () => {
  test.each([
    ["https://user:pass@example.com/x", "https://REDACTED@example.com/x"],
    ["https://ghp_abc@github.com/o/r", "https://REDACTED@github.com/o/r"],
    ["https://example.com/x?api_key=1&q=zod&access_token=2&X-Amz-Signature=3", "https://example.com/x?api_key=REDACTED&q=zod&access_token=REDACTED&X-Amz-Signature=REDACTED"],
    ["https://example.com/x?token=a&sig=b&password=c&client_secret=d&page=2#frag", "https://example.com/x?token=REDACTED&sig=REDACTED&password=REDACTED&client_secret=REDACTED&page=2#frag"],
    ["https://example.com/search?q=token+rotation&lang=en", "https://example.com/search?q=token+rotation&lang=en"],
    ["not a url://x:y@host", "not a url://x:y@host"],
    ["nope://secret@host/x", "nope://REDACTED@host/x"],
  ])("%s is shown as %s", (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});

describe("proxies from the environment", () => {
  const https = new URL("https://docs.example.com/x");
  const http = new URL("http://127.0.0.1:8080/x");
  test("HTTPS_PROXY for https, HTTP_PROXY for http, ALL_PROXY for either; lower case first", () => {
    expect(proxyFor(https, { HTTPS_PROXY: "http://proxy:3128", HTTP_PROXY: "http://other:1" })).toBe("http://proxy:3128");
    expect(proxyFor(https, { https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:1" })).toBe("http://lower:1");
    expect(proxyFor(http, { HTTPS_PROXY: "http://proxy:3128" })).toBeUndefined();
    expect(proxyFor(http, { HTTP_PROXY: "proxy.corp:8080" })).toBe("http://proxy.corp:8080");
    expect(proxyFor(http, { ALL_PROXY: "socks5://s:1080" })).toBe("socks5://s:1080");
    expect(proxyFor(https, {})).toBeUndefined();
  });

  test.each([
    ["*", true],
    ["example.com", true],
    [".example.com", true],
    ["*.example.com", true],
    ["docs.example.com:443", true],
    ["docs.example.com:8443", false],
    ["xample.com", false],
    ["other.org, example.com", true],
  ])("NO_PROXY=%s bypasses the proxy for docs.example.com: %p", (noProxy, direct) => {
    expect(proxyFor(https, { HTTPS_PROXY: "http://proxy:3128", NO_PROXY: noProxy })).toBe(direct ? undefined : "http://proxy:3128");
  });
});

describe("content kinds", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  test.each([
    ["text/html; charset=utf-8", "<p>x</p>", "html"],
    ["application/xhtml+xml", "<p>x</p>", "html"],
    ["text/markdown", "# x", "markdown"],
    ["application/json", "{}", "json"],
    ["application/vnd.api+json", "{}", "json"],
    ["text/plain", "x", "text"],
    ["text/csv", "a,b", "text"],
    ["application/xml", "<a/>", "text"],
    ["image/svg+xml", "<svg/>", "text"],
    ["application/javascript", "x()", "text"],
    ["", "<!DOCTYPE html><p>x</p>", "html"],
    ["", "plain words", "text"],
    ["image/png", "\x89PNG", "binary"],
    ["application/pdf", "%PDF-1.7", "binary"],
    ["application/octet-stream", "abc", "binary"],
    ["application/zip", "PK", "binary"],
    ["text/plain", "ELF\0\0\0", "binary"],
  ])("%s with %j is %s", (type, body, kind) => {
    expect(contentKind(type, bytes(body))).toBe(kind as ReturnType<typeof contentKind>);
  });

  test("UTF-16 text is not mistaken for binary, and charsets are honoured", () => {
    const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    expect(contentKind("text/plain; charset=utf-16le", utf16)).toBe("text");
    expect(decodeText(utf16, "text/plain; charset=utf-16le", "text")).toBe("hi");
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    expect(decodeText(latin1, "text/plain; charset=iso-8859-1", "text")).toBe("café");
    expect(decodeText(latin1, "text/html", "html")).toBe("caf\ufffd");
    const declared = new TextEncoder().encode('<meta charset="windows-1252"><p>');
    expect(decodeText(new Uint8Array([...declared, 0x93, 0x94]), "text/html", "html")).toEndWith("<p>\u201c\u201d");
    expect(decodeText(latin1, "text/plain; charset=x-unknown-thing", "text")).toBe("caf\ufffd");
  });

  test("long text is cut at a line break near the limit", () => {
    const text = `${"a".repeat(95)}\n${"b".repeat(50)}`;
    expect(cutText(text, 100)).toEqual({ text: "a".repeat(95), cutFrom: 146 });
    expect(cutText("x".repeat(150), 100)).toEqual({ text: "x".repeat(100), cutFrom: 150 });
    expect(cutText("short", 100)).toEqual({ text: "short" });
  });
});

describe("the page cache", () => {
  const page = (text: string, fetchedAt: number): CachedPage => ({ text, truncated: false, status: 200, statusText: "OK", contentType: "text/plain", bytes: text.length, url: "https://x.dev/", fetchedAt });
  test("keeps a page 15 minutes, per session", () => {
    const session = toolSession(tempDir());
    rememberPage(session, "https://x.dev/", page("v1", 1_000));
    expect(cachedPage(session, "https://x.dev/", 1_000 + PAGE_TTL_MS - 1)?.text).toBe("v1");
    expect(cachedPage(toolSession(tempDir()), "https://x.dev/", 1_000)).toBeUndefined();
    expect(cachedPage(session, "https://x.dev/", 1_000 + PAGE_TTL_MS)).toBeUndefined();
    // Expired entries are dropped, not kept around.
    expect(cachedPage(session, "https://x.dev/", 1_000)).toBeUndefined();
  });

  test("drops the oldest pages past its size budget", () => {
    const session = toolSession(tempDir());
    const big = "x".repeat(10_000_000);
    rememberPage(session, "https://a/", page(big, 1));
    rememberPage(session, "https://b/", page(big, 2));
    rememberPage(session, "https://c/", page(big, 3));
    expect(["https://a/", "https://b/", "https://c/"].map((url) => cachedPage(session, url, 4) !== undefined)).toEqual([false, true, true]);
  });
});
