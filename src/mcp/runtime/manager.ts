/**
 * Every configured MCP server of a session. `start` returns at once and connects in the
 * background (3 stdio servers at a time, 20 remote ones); each server's failure stays its own.
 * The lead reads `tools()`, `prompts()` and `states()` and hears of changes through `onChange`.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { AnyTool } from "../../tools/types.ts";
import { errorMessage } from "../../util/errors.ts";
import type { DeferredServerName, McpPromptInfo, McpServerEntry, McpServerState } from "../types.ts";
import type { ServerConnection } from "./connection.ts";
import type { ListedResource, ResourceDirectory } from "./resource-directory.ts";

/**
 * The code that connects, adapts and reads servers, loaded with the first server there is to connect:
 * a start whose only servers are defined after its first request (plugins', not waited for) loads
 * none of it before then.
 */
const runtime = {
  connection: () => require("./connection.ts") as typeof import("./connection.ts"),
  adapters: () => require("./adapters.ts") as typeof import("./adapters.ts"),
  resourceTools: () => [require("./list-mcp-resources.ts") as typeof import("./list-mcp-resources.ts"), require("./read-mcp-resource.ts") as typeof import("./read-mcp-resource.ts")] as const,
  names: () => require("./names.ts") as typeof import("./names.ts"),
  promptArgs: () => require("./prompt-args.ts") as typeof import("./prompt-args.ts"),
  text: () => require("./resource-text.ts") as typeof import("./resource-text.ts"),
};

export interface McpRuntimeOptions {
  /** Approved, not blocked. */
  servers: readonly McpServerEntry[];
  /**
   * More servers (approved, not blocked), named when first listed and defined once connecting
   * begins: until then each is listed as pending (or disabled, when it cannot start whatever its
   * definition says).
   */
  later?: { names: () => readonly DeferredServerName[]; load: () => Promise<readonly McpServerEntry[]> };
  /** CLAUDE_PROJECT_DIR for stdio servers (and their working directory); the first root. */
  projectDir: string;
  /** Answer to roots/list: the launch directory and the additional directories. */
  roots: readonly string[];
  /** The environment stdio servers start from (CLAUDECODE=1 and CLAUDE_PROJECT_DIR are added). */
  env: Readonly<Record<string, string>>;
  /** MCP_TIMEOUT: how long one server may take to connect. */
  connectTimeoutMs: number;
  /** MCP_TOOL_TIMEOUT; a server's own `timeout` overrides it. */
  toolTimeoutMs: number;
  /** MAX_MCP_OUTPUT_TOKENS. */
  maxOutputTokens: number;
  clientVersion: string;
  /**
   * Connecting (which loads the SDK, ~150 ms of module evaluation) begins once this settles: a run
   * that does not wait for its servers lets its first request go out first.
   */
  startAfter?: Promise<void>;
  /** See ConnectionOptions.admit. */
  admit?: (entry: McpServerEntry) => string | undefined;
  /** See ConnectionOptions.hostTransports. */
  hostTransports?: ReadonlyMap<string, () => Transport>;
}

export type McpTextResult = { ok: true; text: string } | { ok: false; message: string };

const STDIO_BATCH = 3;
const REMOTE_BATCH = 20;

/** Runs the tasks with at most `limit` under way at once. */
async function inBatches(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++];
      if (task) await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

let collected = false;

/**
 * When the process's first servers have connected (or failed), the garbage of connecting — the
 * SDK's module evaluation, the handshakes' JSON, the protocol schemas built to parse it — is
 * collected at once, before the session's work allocates around it: left to the collector's own
 * schedule it is found only after the heap has grown past it (measured: 1.2–1.9 MiB less peak RSS
 * over a 30-step `-p` run with one stdio server, for one full collection of a few milliseconds).
 * Once: later managers (a helper's own servers) find the SDK loaded.
 */
function collectConnectingGarbage(): void {
  if (collected) return;
  collected = true;
  Bun.gc(true);
}

const byName = <T>(name: (item: T) => string) => (a: T, b: T): number => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

/** Two lists sorted by name as one (hundreds of plugin servers: no sort per call). */
function mergeByName(a: readonly McpServerState[], b: readonly McpServerState[]): McpServerState[] {
  const merged: McpServerState[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const left = a[i];
    const right = b[j];
    if (left && (!right || left.name <= right.name)) {
      merged.push(left);
      i++;
    } else if (right) {
      merged.push(right);
      j++;
    }
  }
  return merged;
}

/** A `later` server's state until it is defined (or, `failure`, when its definition could not be read). */
function waitingState(server: DeferredServerName, failure: string | undefined): McpServerState {
  // Hundreds of these at start-up: plain literals, no spreads.
  if (failure !== undefined) return { name: server.name, scope: server.scope, status: "failed", error: `MCP server "${server.name}" was not started: its definition could not be read (${failure})`, stderrTail: [], toolCount: 0, promptCount: 0, resourceCount: 0 };
  if (server.disabled !== undefined) return { name: server.name, scope: server.scope, status: "disabled", error: server.disabled, stderrTail: [], toolCount: 0, promptCount: 0, resourceCount: 0 };
  return { name: server.name, scope: server.scope, status: "pending", stderrTail: [], toolCount: 0, promptCount: 0, resourceCount: 0 };
}

export class McpManager implements ResourceDirectory {
  private connections: ServerConnection[];
  /** `later` servers not defined yet (undefined: not named yet), and why they never will be. */
  private waiting: readonly DeferredServerName[] | undefined;
  private laterFailure: string | undefined;
  private waitingStates: McpServerState[] | undefined;
  private readonly listeners = new Set<() => void>();
  private all: Promise<void> = Promise.resolve();
  private toolCache?: AnyTool[];
  private readonly skipped = new Map<string, string[]>();
  private closed = false;

  private constructor(private readonly options: McpRuntimeOptions) {
    this.connections = this.connect(options.servers);
  }

  /** The `later` servers not defined yet, named on first need. */
  private pending(): readonly DeferredServerName[] {
    if (this.waiting) return this.waiting;
    const later = this.options.later?.names() ?? [];
    // Plugins' servers come in name order already: hundreds of them are not sorted again.
    this.waiting = later.every((server, index) => index === 0 || (later[index - 1] as DeferredServerName).name <= server.name) ? later : [...later].sort(byName((server) => server.name));
    return this.waiting;
  }

  private connect(entries: readonly McpServerEntry[]): ServerConnection[] {
    if (entries.length === 0) return [];
    const { ServerConnection } = runtime.connection();
    return [...entries].sort(byName((entry) => entry.name)).map((entry) => new ServerConnection(entry, this.options, () => this.changed()));
  }

  static start(options: McpRuntimeOptions): McpManager {
    const manager = new McpManager(options);
    const connect = (connection: ServerConnection) => () => (manager.closed ? Promise.resolve() : connection.connect());
    const begin = options.startAfter ?? Promise.resolve();
    manager.all = begin
      .then(() => manager.defineLater())
      .then(() => {
        const stdio = manager.connections.filter((connection) => connection.entry.config.type === "stdio");
        const remote = manager.connections.filter((connection) => connection.entry.config.type !== "stdio");
        return Promise.all([inBatches(stdio.map(connect), STDIO_BATCH), inBatches(remote.map(connect), REMOTE_BATCH)]);
      })
      .then(() => {
        if (manager.connections.length > 0) collectConnectingGarbage();
      });
    return manager;
  }

  /** The `later` servers get their definitions; one that has none any more is no longer listed. */
  private async defineLater(): Promise<void> {
    const later = this.options.later;
    if (!later || this.closed) return;
    let entries: readonly McpServerEntry[];
    try {
      entries = await later.load();
    } catch (error) {
      this.laterFailure = errorMessage(error);
      this.waitingStates = undefined;
      this.changed();
      return;
    }
    if (this.closed) return;
    this.connections = [...this.connections, ...this.connect(entries)].sort(byName((connection) => connection.entry.name));
    this.waiting = [];
    this.changed();
  }

  /** Resolves when every server has connected or failed, or after `maxWaitMs`, whichever is first. */
  async settled(maxWaitMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, maxWaitMs));
    });
    await Promise.race([this.all, wait]);
    clearTimeout(timer);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.toolCache = undefined;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure must not keep the others from hearing of the change.
      }
    }
  }

  private live(): ServerConnection[] {
    return this.connections.filter((connection) => connection.connected);
  }

  private timeoutFor(entry: McpServerEntry): number {
    return entry.config.timeout ?? this.options.toolTimeoutMs;
  }

  /** The connected servers' tools, in server-name order then each server's own order. */
  tools(): AnyTool[] {
    if (this.toolCache) return this.toolCache;
    const taken = new Set<string>();
    const tools: AnyTool[] = [];
    for (const connection of this.connections.filter((candidate) => candidate.offersTools)) {
      const entry = connection.entry;
      const built = runtime.adapters().buildAdapters(
        { server: entry.name, caller: connection, alwaysLoad: entry.config.alwaysLoad === true, timeoutMs: this.timeoutFor(entry), maxOutputTokens: this.options.maxOutputTokens },
        connection.tools,
        taken,
      );
      this.skipped.set(entry.name, built.skipped);
      tools.push(...built.tools);
    }
    if (this.resourceServers().length > 0) {
      const [{ listMcpResourcesTool }, { readMcpResourceTool }] = runtime.resourceTools();
      tools.push(listMcpResourcesTool(this), readMcpResourceTool(this));
    }
    this.toolCache = tools;
    return tools;
  }

  states(): McpServerState[] {
    if (!this.toolCache) this.tools();
    const states = this.connections.map((connection) => {
      const state = connection.state();
      const warnings = [...(this.skipped.get(connection.entry.name) ?? []), ...connection.warnings];
      if (!connection.connected || warnings.length === 0) return state;
      return { ...state, warnings: warnings.map((warning) => `MCP server "${connection.entry.name}": ${warning}`) };
    });
    const pending = this.pending();
    if (pending.length === 0) return states;
    this.waitingStates ??= pending.map((server) => waitingState(server, this.laterFailure));
    return states.length === 0 ? [...this.waitingStates] : mergeByName(states, this.waitingStates);
  }

  prompts(): McpPromptInfo[] {
    const live = this.live();
    if (live.length === 0) return [];
    const { mcpName } = runtime.names();
    return live.flatMap((connection) =>
      connection.prompts.map((prompt) => ({
        server: connection.entry.name,
        name: prompt.name,
        command: mcpName(connection.entry.name, prompt.name),
        description: prompt.description ?? prompt.title ?? "",
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          ...(argument.description !== undefined ? { description: argument.description } : {}),
          required: argument.required === true,
        })),
      })),
    );
  }

  async getPrompt(command: string, args: string, signal: AbortSignal): Promise<McpTextResult> {
    const name = command.replace(/^\//, "");
    const prompt = this.prompts().find((info) => info.command === name);
    if (!prompt) return { ok: false, message: `No connected MCP server offers the prompt /${name}; run /mcp to see the servers and their state.` };
    const mapped = runtime.promptArgs().mapPromptArgs(prompt, args);
    if (!mapped.ok) return mapped;
    const connection = this.connections.find((candidate) => candidate.entry.name === prompt.server);
    if (!connection) return { ok: false, message: `MCP server "${prompt.server}" is not configured.` };
    try {
      const result = await connection.getPrompt(prompt.name, mapped.values, { signal, timeoutMs: this.timeoutFor(connection.entry) });
      const { promptContentText } = runtime.text();
      const text = result.messages.map((message) => promptContentText(message.content)).filter((part) => part !== "").join("\n\n");
      return { ok: true, text };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  }

  resourceServers(): string[] {
    return this.live()
      .filter((connection) => connection.resources.length > 0)
      .map((connection) => connection.entry.name);
  }

  listResources(server?: string): ListedResource[] {
    return this.live()
      .filter((connection) => server === undefined || connection.entry.name === server)
      .flatMap((connection) =>
        connection.resources.map((resource) => ({
          server: connection.entry.name,
          uri: resource.uri,
          name: resource.name,
          ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
          ...(resource.description !== undefined ? { description: resource.description } : {}),
        })),
      );
  }

  async readResource(server: string, uri: string, signal: AbortSignal): Promise<McpTextResult> {
    const connection = this.connections.find((candidate) => candidate.entry.name === server);
    if (!connection) {
      const known = this.connections.map((candidate) => candidate.entry.name);
      return { ok: false, message: `No MCP server named "${server}"${known.length > 0 ? ` (configured: ${known.join(", ")})` : ""}.` };
    }
    try {
      const result = await connection.readResource(uri, { signal, timeoutMs: this.timeoutFor(connection.entry) });
      return { ok: true, text: runtime.text().resourceContentsText(result.contents) };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  }

  /** Ends every server: stdio process groups are signalled, transports closed. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
