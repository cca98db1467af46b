/**
 * One MCP server's connection: connect within MCP_TIMEOUT, list its tools, prompts and resources,
 * follow `list_changed`, call it, and keep its state for `/mcp`. A server that dies is marked
 * failed with its last stderr lines; the next call restarts it, once.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Prompt, Resource, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { ToolError, errorMessage } from "../../util/errors.ts";
import type { McpServerEntry, McpServerState } from "../types.ts";
import { loadMcpSdk, type McpSdk } from "./load-sdk.ts";
import { noUrlError } from "../config/problems.ts";
import { capText } from "./names.ts";
import { authFailure, buildTransport, type BuiltTransport } from "./transports.ts";

export interface ConnectionOptions {
  projectDir: string;
  roots: readonly string[];
  env: Readonly<Record<string, string>>;
  connectTimeoutMs: number;
  clientVersion: string;
  /** Asked before a server starts: a reason when it must not (its plugin's folder changed since install). */
  admit?: (entry: McpServerEntry) => string | undefined;
  /** Transports of the servers in the host process (scope "sdk"), by name. */
  hostTransports?: ReadonlyMap<string, () => Transport>;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/** Pages of a list a server may return before clew stops asking (a cursor that never ends). */
const MAX_PAGES = 100;

function fileUri(path: string): string {
  return `file://${path.split("/").map(encodeURIComponent).join("/")}`;
}

class ConnectTimeout extends Error {}

export class ServerConnection {
  tools: McpTool[] = [];
  prompts: Prompt[] = [];
  resources: Resource[] = [];
  /** Problems that leave the server usable (a tool skipped, a list that failed to refresh). */
  warnings: string[] = [];
  private status: McpServerState["status"] = "pending";
  private error?: string;
  private instructions?: string;
  private client?: Client;
  private built?: BuiltTransport;
  private connecting?: Promise<void>;
  private everConnected = false;
  private restarted = false;
  private closing = false;

  constructor(
    readonly entry: McpServerEntry,
    private readonly options: ConnectionOptions,
    private readonly changed: () => void,
  ) {
    if (entry.config.type !== "stdio" && entry.config.url.trim() === "") {
      this.status = "disabled";
      this.error = noUrlError(entry.name, entry.origin);
    }
  }

  get connected(): boolean {
    return this.status === "connected";
  }

  /**
   * Whether its tools are offered: while connected, and after it died as long as its one restart
   * is still to come (the next call makes it), so the model can reach the restart.
   */
  get offersTools(): boolean {
    return this.connected || (this.status === "failed" && this.everConnected && !this.restarted && !this.closing);
  }

  state(): McpServerState {
    return {
      name: this.entry.name,
      scope: this.entry.scope,
      status: this.status,
      ...(this.error !== undefined ? { error: this.error } : {}),
      stderrTail: [...(this.built?.stdio?.stderrTail ?? [])],
      toolCount: this.connected ? this.tools.length : 0,
      promptCount: this.connected ? this.prompts.length : 0,
      resourceCount: this.connected ? this.resources.length : 0,
      ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
    };
  }

  /** Connects (or waits for the connection under way); never throws: failure is a state. */
  connect(): Promise<void> {
    if (this.status === "disabled" || this.closing) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const refused = this.options.admit?.(this.entry);
    if (refused !== undefined) {
      this.fail("disabled", refused);
      return;
    }
    this.status = "pending";
    this.error = undefined;
    const sdk = await loadMcpSdk();
    if (this.closing) return;
    let built: BuiltTransport;
    try {
      built = await buildTransport(sdk, this.entry, { projectDir: this.options.projectDir, env: this.options.env, ...(this.options.hostTransports ? { hostTransports: this.options.hostTransports } : {}) });
    } catch (error) {
      if (this.closing) return;
      this.fail("failed", `MCP server "${this.entry.name}" cannot start: ${errorMessage(error)} (${this.entry.origin})`);
      return;
    }
    this.built = built;
    const client = new sdk.Client({ name: "clew", version: this.options.clientVersion }, { capabilities: { roots: { listChanged: true } } });
    this.client = client;
    this.handleRequests(sdk, client);
    const timeoutMs = this.options.connectTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ConnectTimeout()), timeoutMs);
      });
      await Promise.race([client.connect(built.transport, { timeout: timeoutMs }), deadline]);
      await Promise.race([this.loadLists(client, timeoutMs), deadline]);
    } catch (error) {
      clearTimeout(timer);
      if (this.client !== client) return;
      const classified = authFailure(built, this.entry, error);
      if (!classified) await this.built?.stdio?.exitWithin(500);
      if (classified) this.fail(classified.status, classified.message);
      else this.fail("failed", this.connectFailure(sdk, error));
      this.client = undefined;
      await built.transport.close().catch(() => undefined);
      return;
    }
    clearTimeout(timer);
    if (this.closing) {
      await built.transport.close().catch(() => undefined);
      return;
    }
    const instructions = client.getInstructions();
    this.instructions = instructions ? capText(instructions) : undefined;
    client.onclose = () => this.lost(client);
    this.status = "connected";
    this.everConnected = true;
    this.changed();
  }

  private connectFailure(sdk: McpSdk, error: unknown): string {
    const name = `MCP server "${this.entry.name}"`;
    const stdio = this.built?.stdio;
    const parts: string[] = [];
    if (error instanceof ConnectTimeout || (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout)) {
      parts.push(`${name} did not finish connecting within ${this.options.connectTimeoutMs} ms (MCP_TIMEOUT); check that it is an MCP server and starts quickly, or raise MCP_TIMEOUT`);
    } else if (stdio?.exitDescription) {
      parts.push(`${name} ${stdio.exitDescription} before it finished connecting`);
    } else if (error instanceof ListError) {
      parts.push(`${name} ${error.message}`);
    } else {
      parts.push(`${name} failed to connect: ${errorMessage(error)}`);
    }
    if (stdio && stdio.strayStdout.length > 0) {
      parts.push(`it wrote text that is not JSON-RPC on stdout (${JSON.stringify(stdio.strayStdout[0])}): a stdio server must write only protocol messages to stdout and log to stderr`);
    }
    const lastErr = stdio?.stderrTail.at(-1);
    if (lastErr && !stdio?.strayStdout.length) parts.push(`last stderr line: ${lastErr}`);
    return `${parts.join("; ")} (${this.entry.origin})`;
  }

  private fail(status: McpServerState["status"], message: string): void {
    this.status = status;
    this.error = message;
    this.changed();
  }

  private lost(client: Client): void {
    if (this.client !== client || this.closing) return;
    this.client = undefined;
    const how = this.built?.stdio?.exitDescription ?? "closed the connection";
    const again = this.restarted ? "" : "; the next call to one of its tools restarts it";
    this.fail("failed", `MCP server "${this.entry.name}" ${how}${again}`);
  }

  private handleRequests(sdk: McpSdk, client: Client): void {
    const roots = this.options.roots.map((path) => ({ uri: fileUri(path), name: path.split("/").at(-1) || path }));
    client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({ roots }));
    const refresh = (what: "tools" | "prompts" | "resources") => () => {
      void this.refresh(client, what);
    };
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, refresh("tools"));
    client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, refresh("prompts"));
    client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, refresh("resources"));
  }

  private async loadLists(client: Client, timeoutMs: number): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {};
    const options = { timeout: timeoutMs };
    this.tools = capabilities.tools ? await listTools(client, options) : [];
    this.warnings = [];
    // Prompts and resources are extras: a server whose tools work stays usable without them.
    try {
      this.prompts = capabilities.prompts ? await listPrompts(client, options) : [];
    } catch (error) {
      this.prompts = [];
      this.warnings.push(`its prompts/list failed: ${errorMessage(error)}`);
    }
    try {
      this.resources = capabilities.resources ? await listResources(client, options) : [];
    } catch (error) {
      this.resources = [];
      this.warnings.push(`its resources/list failed: ${errorMessage(error)}`);
    }
  }

  private async refresh(client: Client, what: "tools" | "prompts" | "resources"): Promise<void> {
    const options = { timeout: this.options.connectTimeoutMs };
    try {
      if (what === "tools") this.tools = await listTools(client, options);
      else if (what === "prompts") this.prompts = await listPrompts(client, options);
      else this.resources = await listResources(client, options);
    } catch (error) {
      this.warnings.push(`refreshing its ${what} after list_changed failed: ${errorMessage(error)}`);
    }
    if (this.client === client) this.changed();
  }

  /** The live client, restarting a dead server once; a ToolError says why there is none. */
  async live(): Promise<Client> {
    if (this.connecting) await this.connecting;
    if (!this.connected && this.everConnected && !this.restarted && !this.closing) {
      this.restarted = true;
      await this.connect();
    }
    const client = this.client;
    if (!client || !this.connected) {
      const why = this.error ?? `MCP server "${this.entry.name}" is not connected`;
      const tail = this.built?.stdio?.stderrTail.slice(-5) ?? [];
      throw new ToolError(tail.length > 0 ? `${why}\nLast stderr lines:\n${tail.join("\n")}` : why);
    }
    return client;
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const client = await this.live();
    try {
      return await client.callTool({ name: tool, arguments: args }, undefined, { signal: options.signal, timeout: options.timeoutMs });
    } catch (error) {
      throw await this.callError(`the call to "${tool}"`, error, options);
    }
  }

  async getPrompt(name: string, args: Record<string, string>, options: CallOptions): Promise<Awaited<ReturnType<Client["getPrompt"]>>> {
    const client = await this.live();
    try {
      return await client.getPrompt({ name, arguments: args }, { signal: options.signal, timeout: options.timeoutMs });
    } catch (error) {
      throw await this.callError(`prompt "${name}"`, error, options);
    }
  }

  async readResource(uri: string, options: CallOptions): Promise<Awaited<ReturnType<Client["readResource"]>>> {
    const client = await this.live();
    try {
      return await client.readResource({ uri }, { signal: options.signal, timeout: options.timeoutMs });
    } catch (error) {
      throw await this.callError(`reading ${uri}`, error, options);
    }
  }

  private async callError(what: string, error: unknown, options: CallOptions): Promise<unknown> {
    if (options.signal.aborted) return error;
    const sdk = await loadMcpSdk();
    const name = `MCP server "${this.entry.name}"`;
    const stdio = this.built?.stdio;
    if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.ConnectionClosed) {
      const how = stdio?.exitDescription ?? "closed the connection";
      const tail = stdio?.stderrTail.slice(-5) ?? [];
      return new ToolError(`${name} ${how} during ${what}.${tail.length > 0 ? `\nLast stderr lines:\n${tail.join("\n")}` : ""}`);
    }
    if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
      return new ToolError(`${name} did not answer ${what} within ${options.timeoutMs} ms (MCP_TOOL_TIMEOUT, or the server's "timeout")`, "tool_timeout");
    }
    const auth = authFailure(this.built, this.entry, error);
    if (auth) {
      this.fail(auth.status, auth.message);
      return new ToolError(auth.message);
    }
    return new ToolError(`${name} returned an error for ${what}: ${errorMessage(error)}`);
  }

  /** Ends the server; a connection still under way is cut short (its process ended) and awaited. */
  async close(): Promise<void> {
    this.closing = true;
    const built = this.built;
    this.client = undefined;
    if (built) await built.transport.close().catch(() => undefined);
    await this.connecting?.catch(() => undefined);
  }
}

class ListError extends Error {}

/** A schema failure as "tools.0.name: expected string", not zod's JSON dump. */
function describeInvalid(error: unknown): string {
  const issues = (error as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return errorMessage(error);
  const shown = issues.slice(0, 3).map((raw) => {
    const issue = raw as { path?: unknown[]; message?: string };
    const where = Array.isArray(issue.path) && issue.path.length > 0 ? issue.path.join(".") : "(result)";
    return `${where}: ${issue.message ?? "invalid"}`;
  });
  return `${shown.join("; ")}${issues.length > 3 ? `; and ${issues.length - 3} more` : ""}`;
}

async function listAll<T>(what: string, page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let count = 0; count < MAX_PAGES; count++) {
    let result: { items: T[]; nextCursor?: string };
    try {
      result = await page(cursor);
    } catch (error) {
      throw new ListError(`returned an invalid answer to ${what} (${describeInvalid(error)}); the server does not follow the MCP schema — update or fix it`);
    }
    items.push(...result.items);
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return items;
}

type ListOptions = { timeout: number };

function listTools(client: Client, options: ListOptions): Promise<McpTool[]> {
  return listAll("tools/list", async (cursor) => {
    const result = await client.listTools(cursor ? { cursor } : undefined, options);
    return { items: result.tools, nextCursor: result.nextCursor };
  });
}

function listPrompts(client: Client, options: ListOptions): Promise<Prompt[]> {
  return listAll("prompts/list", async (cursor) => {
    const result = await client.listPrompts(cursor ? { cursor } : undefined, options);
    return { items: result.prompts, nextCursor: result.nextCursor };
  });
}

function listResources(client: Client, options: ListOptions): Promise<Resource[]> {
  return listAll("resources/list", async (cursor) => {
    const result = await client.listResources(cursor ? { cursor } : undefined, options);
    return { items: result.resources, nextCursor: result.nextCursor };
  });
}
