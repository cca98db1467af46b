/** The MCP SDK boundary (sdk.ts), loaded once, at the first connection. */
export type McpSdk = typeof import("./sdk.ts");

let loading: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  return (loading ??= import("./sdk.ts"));
}
