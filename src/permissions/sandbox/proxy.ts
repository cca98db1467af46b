/**
 * The filtering HTTP proxy every sandboxed command's traffic goes through (spec §7.2). It runs in
 * clew, outside the sandbox, and never terminates TLS: `CONNECT host:port` is checked by host name
 * and then tunnelled; a plain-HTTP request must use the absolute form (`GET http://host/path`),
 * is checked the same way and forwarded with `Connection: close`, so one connection cannot be
 * reused for another host. A refused request gets a 403 naming the host and the setting, and is
 * remembered so a failed command can be told what was blocked.
 */
import { decideHost } from "./domains.ts";
import { Relay } from "./relay.ts";
import type { NetworkPolicy } from "./types.ts";

const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = new TextEncoder().encode("\r\n\r\n");

export interface Refusal {
  host: string;
  port: number;
  why: string;
  /** Increases with every refusal: a command looks at those after the sequence it started at. */
  seq: number;
}

export type ProxyListen = { unix: string } | { hostname: string; port: number };

export interface FilteringProxy {
  /** The TCP port (when listening on TCP). */
  readonly port: number | undefined;
  readonly refusals: readonly Refusal[];
  /** The sequence number of the latest refusal (0 before any). */
  readonly seq: number;
  stop(): void;
}

interface ClientState {
  phase: "head" | "connecting" | "open";
  head: Uint8Array;
  toUpstream?: Relay;
  toClient?: Relay;
  /** Bytes that arrived after the head, before the upstream connection opened. */
  early: Uint8Array[];
  closed: boolean;
}

function indexOfHeadEnd(bytes: Uint8Array): number {
  outer: for (let i = 0; i + HEAD_END.length <= bytes.length; i++) {
    for (let j = 0; j < HEAD_END.length; j++) if (bytes[i + j] !== HEAD_END[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export interface ParsedTarget {
  tunnel: boolean;
  host: string;
  port: number;
  /** For plain HTTP: the head to send upstream (origin-form request line, `Connection: close`). */
  head?: string;
}

/** Reads a proxy request head; undefined when it is neither CONNECT nor an absolute http:// URI. */
export function parseProxyRequest(head: string): ParsedTarget | undefined {
  const [requestLine = "", ...headerLines] = head.split("\r\n");
  const match = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(requestLine);
  if (!match) return undefined;
  const [, method = "", target = "", version = ""] = match;
  if (method === "CONNECT") {
    const hostPort = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(target);
    if (!hostPort) return undefined;
    return { tunnel: true, host: hostPort[1] ?? "", port: Number(hostPort[2]) };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:") return undefined;
  const kept = headerLines.filter((line) => line !== "" && !/^(proxy-connection|proxy-authorization|connection|keep-alive):/i.test(line));
  const originForm = `${url.pathname}${url.search}`;
  const rewritten = [`${method} ${originForm} ${version}`, ...kept, "Connection: close", "", ""].join("\r\n");
  return { tunnel: false, host: url.hostname.replace(/^\[|\]$/g, ""), port: url.port === "" ? 80 : Number(url.port), head: rewritten };
}

function reply(status: string, message: string): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\nX-Clew-Sandbox: ${status.startsWith("403") ? "blocked" : "error"}\r\n\r\n${message}`;
}

export function startFilteringProxy(listen: ProxyListen, network: () => NetworkPolicy): FilteringProxy {
  const refusals: Refusal[] = [];
  let seq = 0;
  const encoder = new TextEncoder();

  const refuse = (client: { write(data: string): number; end(): void }, host: string, port: number, why: string): void => {
    seq += 1;
    refusals.push({ host, port, why, seq });
    if (refusals.length > 200) refusals.shift();
    client.write(reply("403 Forbidden", `clew sandbox: the connection to ${host}:${port} was refused: ${why}.\n`));
    client.end();
  };

  const handlers = {
    open(client: ClientSocket) {
      client.data = { phase: "head", head: new Uint8Array(0), early: [], closed: false };
    },
    data(client: ClientSocket, chunk: Uint8Array) {
      const state = client.data;
      if (state.phase === "open") return state.toUpstream?.send(chunk);
      if (state.phase === "connecting") return void state.early.push(chunk.slice());
      state.head = concat(state.head, chunk);
      const end = indexOfHeadEnd(state.head);
      if (end < 0) {
        if (state.head.length > MAX_HEAD_BYTES) {
          client.write(reply("431 Request Header Fields Too Large", "clew sandbox proxy: request head too large\n"));
          client.end();
        }
        return;
      }
      const target = parseProxyRequest(new TextDecoder().decode(state.head.subarray(0, end)));
      const rest = state.head.subarray(end + HEAD_END.length);
      state.head = new Uint8Array(0);
      if (!target) {
        client.write(reply("400 Bad Request", "clew sandbox proxy: send CONNECT host:port, or an absolute http:// URL\n"));
        client.end();
        return;
      }
      const decision = decideHost(network(), target.host, target.port);
      if (!decision.allowed) return refuse(client, target.host, target.port, decision.why);
      state.phase = "connecting";
      if (rest.length > 0) state.early.push(rest.slice());
      void connectUpstream(client, target);
    },
    drain(client: ClientSocket) {
      client.data.toClient?.drain();
    },
    close(client: ClientSocket) {
      client.data.closed = true;
      client.data.toUpstream?.end();
    },
    error(client: ClientSocket) {
      client.data.closed = true;
      client.data.toUpstream?.end();
    },
  };

  const connectUpstream = async (client: ClientSocket, target: ParsedTarget): Promise<void> => {
    const state = client.data;
    const toClient = new Relay(client);
    try {
      const upstream = await Bun.connect({
        hostname: target.host,
        port: target.port,
        socket: {
          data(_socket, chunk) {
            toClient.send(chunk);
          },
          drain() {
            state.toUpstream?.drain();
          },
          close() {
            toClient.end();
          },
          error() {
            toClient.end();
          },
        },
      });
      if (state.closed) {
        upstream.end();
        return;
      }
      state.toClient = toClient;
      const toUpstream = new Relay(upstream);
      if (target.tunnel) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      else if (target.head) toUpstream.send(encoder.encode(target.head));
      for (const chunk of state.early.splice(0)) toUpstream.send(chunk);
      state.toUpstream = toUpstream;
      state.phase = "open";
    } catch (error) {
      if (state.closed) return;
      client.write(reply("502 Bad Gateway", `clew sandbox proxy: could not connect to ${target.host}:${target.port}: ${error instanceof Error ? error.message : String(error)}\n`));
      client.end();
    }
  };

  const tcp = "unix" in listen ? undefined : Bun.listen<ClientState>({ hostname: listen.hostname, port: listen.port, socket: handlers });
  const server = tcp ?? Bun.listen<ClientState>({ unix: (listen as { unix: string }).unix, socket: handlers });
  // Waiting for connections must not keep a finished `clew -p` alive.
  server.unref();
  return {
    port: tcp?.port,
    refusals,
    get seq() {
      return seq;
    },
    stop: () => server.stop(true),
  };
}

type ClientSocket = Bun.Socket<ClientState>;
