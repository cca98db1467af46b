/**
 * The only module that imports the MCP SDK's client runtime statically, and it is itself only
 * ever loaded with `await import()` (at a session's first MCP connection): a session without MCP
 * servers loads none of the SDK. Naming the few pieces every connection uses lets the bundler
 * leave out the server side; the remote transports are loaded apart (load-sdk.ts), for remote
 * servers only.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export {
  ErrorCode,
  JSONRPCMessageSchema,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
