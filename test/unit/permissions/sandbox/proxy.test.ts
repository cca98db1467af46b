// The filtering proxy: which hosts pass, how requests are read, and — over real sockets — that an
// allowed CONNECT is tunnelled, an allowed plain-HTTP request is forwarded in origin form with
// Connection: close, and a refused one gets a 403, is remembered, and never reaches its server.
import { afterEach, describe, expect, test } from "bun:test";
import { decideHost, hostMatches } from "../../../../src/permissions/sandbox/domains.ts";
import { parseProxyRequest, startFilteringProxy, type FilteringProxy } from "../../../../src/permissions/sandbox/proxy.ts";

describe("host decisions", () => {
  test("exact hosts, subdomain wildcards, ports and *", () => {
    const cases: Array<[string, string, number, boolean]> = [
      ["github.com", "github.com", 443, true],
      ["github.com", "GitHub.com.", 443, true],
      ["github.com", "api.github.com", 443, false],
      ["*.github.com", "api.github.com", 443, true],
      ["*.github.com", "a.b.github.com", 443, true],
      ["*.github.com", "github.com", 443, false],
      ["*.github.com", "evilgithub.com", 443, false],
      ["127.0.0.1:8080", "127.0.0.1", 8080, true],
      ["127.0.0.1:8080", "127.0.0.1", 8081, false],
      ["[::1]:80", "::1", 80, true],
      ["*", "anything.test", 1, true],
    ];
    expect(cases.map(([entry, host, port]) => hostMatches(entry, host, port))).toEqual(cases.map((row) => row[3]));
  });

  test("deny beats allow; nothing listed is refused", () => {
    const policy = { allowedDomains: ["*.example.com", "example.com"], deniedDomains: ["bad.example.com"], allowLocalBinding: false };
    expect([decideHost(policy, "ok.example.com", 443), decideHost(policy, "bad.example.com", 443), decideHost(policy, "other.test", 80)]).toEqual([
      { allowed: true, entry: "*.example.com" },
      { allowed: false, entry: "bad.example.com", why: 'it matches "bad.example.com" in sandbox.network.deniedDomains' },
      { allowed: false, why: "it is not in sandbox.network.allowedDomains" },
    ]);
  });
});

describe("proxy request heads", () => {
  test("CONNECT, absolute http:// URIs (rewritten), and what is refused", () => {
    expect(parseProxyRequest("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443")).toEqual({ tunnel: true, host: "example.com", port: 443 });
    expect(parseProxyRequest("CONNECT [::1]:8443 HTTP/1.1")).toEqual({ tunnel: true, host: "::1", port: 8443 });
    expect(parseProxyRequest("GET http://h.test:8080/a/b?c=1 HTTP/1.1\r\nHost: h.test:8080\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive\r\nAccept: */*")).toEqual({
      tunnel: false,
      host: "h.test",
      port: 8080,
      head: "GET /a/b?c=1 HTTP/1.1\r\nHost: h.test:8080\r\nAccept: */*\r\nConnection: close\r\n\r\n",
    });
    expect(parseProxyRequest("GET /relative HTTP/1.1\r\nHost: h.test")).toBeUndefined();
    expect(parseProxyRequest("GET https://h.test/ HTTP/1.1")).toBeUndefined();
    expect(parseProxyRequest("CONNECT h.test HTTP/1.1")).toBeUndefined();
  });
});

describe("the proxy over real sockets", () => {
  const stops: Array<() => void> = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  function upstream(): { port: number; seen: string[] } {
    const seen: string[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        seen.push(`${request.method} ${new URL(request.url).pathname} connection=${request.headers.get("connection")}`);
        return new Response("from upstream");
      },
    });
    stops.push(() => server.stop(true));
    return { port: server.port ?? 0, seen };
  }

  /** Sends raw bytes to the proxy and collects everything it answers until it closes. */
  async function exchange(proxy: FilteringProxy, text: string): Promise<string> {
    let received = "";
    const { promise, resolve } = Promise.withResolvers<string>();
    await Bun.connect({
      hostname: "127.0.0.1",
      port: proxy.port ?? 0,
      socket: {
        open(socket) {
          socket.write(text);
        },
        data(_socket, chunk) {
          received += new TextDecoder().decode(chunk);
        },
        close() {
          resolve(received);
        },
      },
    });
    return promise;
  }

  test("allowed plain HTTP is forwarded in origin form with Connection: close; a refused host gets a 403 and is remembered", async () => {
    const allowed = upstream();
    const refused = upstream();
    const proxy = startFilteringProxy({ hostname: "127.0.0.1", port: 0 }, () => ({ allowedDomains: [`127.0.0.1:${allowed.port}`], deniedDomains: [], allowLocalBinding: false }));
    stops.push(() => proxy.stop());
    const ok = await exchange(proxy, `GET http://127.0.0.1:${allowed.port}/hello HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nConnection: keep-alive\r\n\r\n`);
    expect(ok.startsWith("HTTP/1.1 200")).toBe(true);
    expect(ok.endsWith("from upstream")).toBe(true);
    expect(allowed.seen).toEqual(["GET /hello connection=close"]);

    const no = await exchange(proxy, `GET http://127.0.0.1:${refused.port}/secret HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(no.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
    expect(no).toContain(`clew sandbox: the connection to 127.0.0.1:${refused.port} was refused: it is not in sandbox.network.allowedDomains.`);
    expect(refused.seen).toEqual([]);
    expect(proxy.refusals).toEqual([{ host: "127.0.0.1", port: refused.port, why: "it is not in sandbox.network.allowedDomains", seq: 1 }]);
    expect(proxy.seq).toBe(1);
  });

  test("an allowed CONNECT becomes a byte tunnel", async () => {
    const allowed = upstream();
    const proxy = startFilteringProxy({ hostname: "127.0.0.1", port: 0 }, () => ({ allowedDomains: ["127.0.0.1"], deniedDomains: [], allowLocalBinding: false }));
    stops.push(() => proxy.stop());
    // The request through the tunnel is sent with the CONNECT: bytes after the head must not be lost.
    const answer = await exchange(proxy, `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\n\r\nGET /tunnelled HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
    expect(answer.startsWith("HTTP/1.1 200 Connection Established\r\n\r\nHTTP/1.1 200")).toBe(true);
    expect(allowed.seen).toEqual(["GET /tunnelled connection=close"]);
  });
});
