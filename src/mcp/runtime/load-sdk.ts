/**
 * The MCP SDK, loaded once, when first needed: the client (sdk.ts) at the first connection, the
 * remote transports — streamable HTTP, SSE, WebSocket, and the OAuth client they import — only at
 * a remote server's, so a session of stdio servers evaluates none of them.
 */
export type McpSdk = typeof import("./sdk.ts");

type StreamableHttp = typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
type Sse = typeof import("@modelcontextprotocol/sdk/client/sse.js");

export interface RemoteMcpSdk {
  StreamableHTTPClientTransport: StreamableHttp["StreamableHTTPClientTransport"];
  StreamableHTTPError: StreamableHttp["StreamableHTTPError"];
  SSEClientTransport: Sse["SSEClientTransport"];
  SseError: Sse["SseError"];
  WebSocketClientTransport: typeof import("@modelcontextprotocol/sdk/client/websocket.js").WebSocketClientTransport;
  UnauthorizedError: typeof import("@modelcontextprotocol/sdk/client/auth.js").UnauthorizedError;
}

let loading: Promise<McpSdk> | undefined;
let loadingRemote: Promise<RemoteMcpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  return (loading ??= import("./sdk.ts"));
}

async function importRemote(): Promise<RemoteMcpSdk> {
  const [http, sse, ws, auth] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/websocket.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
  ]);
  return {
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    WebSocketClientTransport: ws.WebSocketClientTransport,
    UnauthorizedError: auth.UnauthorizedError,
  };
}

export function loadRemoteMcpSdk(): Promise<RemoteMcpSdk> {
  return (loadingRemote ??= importRemote());
}
