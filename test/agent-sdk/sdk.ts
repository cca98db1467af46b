// The Agent SDK and the zod it takes tool schemas in, resolved from this folder's own
// node_modules (installed from the npm registry by .ci/run), for test/e2e/agent-sdk.test.ts.
export { createSdkMcpServer, query, tool } from "@anthropic-ai/claude-agent-sdk";
export type { CanUseTool, Options, PermissionResult, Query, SDKMessage, SDKResultMessage, SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
export { z } from "zod";
