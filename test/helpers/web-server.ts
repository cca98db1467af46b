// Real HTTP servers on the loopback range for WebFetch tests: the saved pages of test/fixtures/web,
// a 5 MB page built from them, redirect chains (same host and to another loopback host), binary
// files, a server that never finishes its body, and a log of every request each server received.
import type { Server } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const WEB_FIXTURES = join(import.meta.dir, "../fixtures/web");
export const NEWS_ARTICLE = readFileSync(join(WEB_FIXTURES, "news-article.html"), "utf8");
export const DOCS_PAGE = readFileSync(join(WEB_FIXTURES, "docs-page.html"), "utf8");

/** The documentation page with its main section repeated until the page is `bytes` long (ids kept unique). */
export function bigDocsPage(bytes = 5 * 1024 * 1024): string {
  const start = DOCS_PAGE.indexOf('<div class="body" role="main">');
  const end = DOCS_PAGE.indexOf('<div class="sphinxsidebar"');
  const section = DOCS_PAGE.slice(start, end);
  const parts = [DOCS_PAGE.slice(0, start)];
  let size = parts[0]?.length ?? 0;
  for (let copy = 1; size < bytes; copy++) {
    const piece = section.replaceAll('id="', `id="c${copy}-`).replaceAll('href="#', `href="#c${copy}-`);
    parts.push(piece);
    size += piece.length;
  }
  parts.push(DOCS_PAGE.slice(start));
  return parts.join("");
}

/** A 1×1 PNG: a small, real binary file. */
export const PNG_BYTES = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

export interface LoggedRequest {
  path: string;
  host: string;
  userAgent: string;
}

export interface WebServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  host: string;
  port: number;
  log: LoggedRequest[];
  /** Requests the slow route is still holding open. */
  held(): number;
  close(): Promise<void>;
}

type Route = (request: Request, server: WebServer) => Response | Promise<Response>;

const html = (body: string): Response => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

/** Routes every test server answers; `other` is where `/cross-host` redirects to. */
function routes(other: () => string | undefined, slow: Set<() => void>): Record<string, Route> {
  let big: string | undefined;
  return {
    "/news/obama-interview": () => html(NEWS_ARTICLE),
    "/docs/library/json.html": () => html(DOCS_PAGE),
    "/docs/big.html": () => html((big ??= bigDocsPage())),
    "/notes.md": () => new Response("# Release notes\n\n- `--fast` flag added\n", { headers: { "content-type": "text/markdown; charset=utf-8" } }),
    "/api/status.json": () => Response.json({ status: "green", version: "2.4.1" }),
    "/redirect/1": () => new Response(null, { status: 302, headers: { location: "/redirect/2" } }),
    "/redirect/2": (request) => new Response(null, { status: 301, headers: { location: new URL("/redirect/3", request.url).href } }),
    "/redirect/3": () => new Response(null, { status: 307, headers: { location: "/docs/library/json.html" } }),
    "/cross-host": () => new Response(null, { status: 302, headers: { location: `${other() ?? "http://127.0.0.2:9"}/landing?token=s3cr3t-value` } }),
    "/landing": () => html("<html><head><title>Landing</title></head><body><p>You reached the other host.</p></body></html>"),
    "/logo.png": () => new Response(PNG_BYTES, { headers: { "content-type": "image/png" } }),
    "/report.pdf": () => new Response(Buffer.concat([Buffer.from("%PDF-1.7\n"), PNG_BYTES]), { headers: { "content-type": "application/pdf" } }),
    "/mislabelled.txt": () => new Response(Buffer.concat([Buffer.from("ELF"), Buffer.alloc(64)]), { headers: { "content-type": "text/plain" } }),
    "/missing": () => new Response("not here", { status: 404 }),
    // Headers and the start of a page, then nothing: the body never ends until the client leaves.
    "/slow": (request) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("<html><body><p>Loading"));
            const release = () => {
              slow.delete(release);
              try {
                controller.close();
              } catch {
                // Already closed by the client leaving.
              }
            };
            slow.add(release);
            request.signal.addEventListener("abort", release, { once: true });
          },
        }),
        { headers: { "content-type": "text/html" } },
      ),
  };
}

/** A server on `host` (any 127.x address); `crossTo` names the server `/cross-host` redirects to. */
export async function startWebServer(host = "127.0.0.1", crossTo?: () => string | undefined): Promise<WebServer> {
  const log: LoggedRequest[] = [];
  const slow = new Set<() => void>();
  let self: WebServer | undefined;
  const table = routes(crossTo ?? (() => undefined), slow);
  const server: Server<undefined> = Bun.serve({
    hostname: host,
    port: 0,
    idleTimeout: 0,
    fetch(request, bunServer) {
      const url = new URL(request.url);
      log.push({ path: url.pathname + url.search, host: request.headers.get("host") ?? "", userAgent: request.headers.get("user-agent") ?? "" });
      const route = table[url.pathname];
      if (url.pathname === "/slow") bunServer.timeout(request, 0);
      return route && self ? route(request, self) : new Response("no such page", { status: 404 });
    },
  });
  self = {
    url: `http://${host}:${server.port}`,
    host,
    port: server.port ?? 0,
    log,
    held: () => slow.size,
    close: async () => {
      for (const release of [...slow]) release();
      await server.stop(true);
    },
  };
  return self;
}
