/**
 * An MCP transport to a server that lives in the host process driving clew (the Agent SDK's
 * `createSdkMcpServer`): each JSON-RPC message travels to the host through a relay — the control
 * channel's `mcp_message` requests — and the host's reply comes back as the answer to it.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Sends one message to the host's server; resolves with the server's reply to a request. */
export type HostRelay = (message: JSONRPCMessage) => Promise<unknown>;

const INTERNAL_ERROR = -32603;

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } {
  return "method" in message && "id" in message && message.id !== undefined && message.id !== null;
}

function isReply(value: unknown): value is JSONRPCMessage {
  return typeof value === "object" && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === "2.0" && ("result" in value || "error" in value);
}

export class HostRelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  constructor(
    private readonly relay: HostRelay,
    /** Named in errors: the server as the host registered it. */
    private readonly serverName: string,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error(`the in-process MCP server "${this.serverName}" is closed`);
    const sent = this.relay(message);
    if (!isRequest(message)) {
      // Notifications and our answers to the server's requests get no reply worth reading.
      sent.catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    sent.then(
      (reply) => {
        if (this.closed) return;
        if (isReply(reply)) this.onmessage?.({ ...reply, id: message.id } as JSONRPCMessage);
        else this.onmessage?.({ jsonrpc: "2.0", id: message.id, error: { code: INTERNAL_ERROR, message: `the host answered ${message.method} for "${this.serverName}" without a JSON-RPC reply` } });
      },
      (error: unknown) => {
        if (this.closed) return;
        const text = error instanceof Error ? error.message : String(error);
        this.onmessage?.({ jsonrpc: "2.0", id: message.id, error: { code: INTERNAL_ERROR, message: `${message.method} to the in-process MCP server "${this.serverName}" failed: ${text}` } });
      },
    );
  }

  /** A message the host's server sent on its own, such as `notifications/tools/list_changed`. */
  deliver(message: JSONRPCMessage): void {
    if (!this.closed) this.onmessage?.(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
