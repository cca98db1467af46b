/**
 * The only module that imports the MCP SDK's runtime, and it is itself only ever loaded with
 * `await import()` (at a session's first MCP connection): a session without MCP servers loads
 * none of the SDK. Naming the few pieces clew uses lets the bundler leave out the server side.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
export { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
export { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
export {
  ErrorCode,
  JSONRPCMessageSchema,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
