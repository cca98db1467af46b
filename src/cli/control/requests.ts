/**
 * The caller's control requests once the session is open: each subtype is answered from what
 * the session already offers (mode, model, MCP states, context usage); one clew does not have
 * gets an error response naming it, so a host learns what is missing instead of hanging.
 */
import type { Session } from "../../app/session.ts";
import { PERMISSION_MODES, type PermissionMode } from "../../permissions/types.ts";
import type { ControlRequestBody } from "./input.ts";

export type ControlAnswer = { ok: true; response: Record<string, unknown> } | { ok: false; error: string };

export interface ControlContext {
  session: Session;
  /**
   * Stops the running turn (if one runs). Messages queued behind it still run, unless
   * `cancelQueued`: the answer lists them (`still_queued`) or the ones dropped (`cancelled`) by uuid.
   */
  interrupt(cancelQueued: boolean): { still_queued: string[]; cancelled?: string[] };
  /** `bypassPermissions` may be switched to (started in it, or --allow-dangerously-skip-permissions). */
  bypassAllowed: boolean;
  /** A message the host's in-process MCP server sent on its own; false when no such server exists. */
  deliverMcp(server: string, message: unknown): boolean;
  /** Whether the session opened after an initialize request (the first line of input). */
  initialized: boolean;
  /** Puts the files back to before a user message (by its id); `canRewind: false` with the reason when it cannot. */
  rewindFiles?: (userMessageId: string, dryRun: boolean) => Promise<Record<string, unknown>>;
}

const ok = (response: Record<string, unknown> = {}): ControlAnswer => ({ ok: true, response });
const fail = (error: string): ControlAnswer => ({ ok: false, error });

/** Subtypes the Agent SDK can send that clew does not implement, with what to do instead. */
const NOT_SUPPORTED: Record<string, string> = {
  set_max_thinking_tokens: "set the effort or thinking budget when starting clew (--effort, MAX_THINKING_TOKENS)",
  mcp_set_servers: "pass MCP servers when the session starts (mcpServers / --mcp-config)",
  mcp_reconnect: "restart the session to reconnect a server",
  mcp_toggle: "restart the session without the server",
  reload_plugins: "restart the session to load changed plugins",
  apply_flag_settings: "pass settings when the session starts (--settings)",
  update_settings: "edit the settings files; clew reads them when a session starts",
  hook_callback: "hook callbacks run in the host, not in clew",
};

function setPermissionMode(request: ControlRequestBody, context: ControlContext): ControlAnswer {
  // No auto mode in clew: Claude Code falls back to default when auto is unavailable.
  const raw = request.mode === "manual" || request.mode === "auto" ? "default" : request.mode;
  if (typeof raw !== "string" || !(PERMISSION_MODES as readonly string[]).includes(raw)) {
    return fail(`set_permission_mode: mode ${JSON.stringify(request.mode)} is not one of ${PERMISSION_MODES.join(", ")}`);
  }
  const mode = raw as PermissionMode;
  if (mode === "bypassPermissions") {
    if (context.session.settings.settings.permissions.disableBypassPermissionsMode === "disable") {
      return fail("set_permission_mode: bypassPermissions is disabled by settings (permissions.disableBypassPermissionsMode)");
    }
    if (!context.bypassAllowed) {
      return fail("set_permission_mode: bypassPermissions needs the session to start with --allow-dangerously-skip-permissions or --permission-mode bypassPermissions (the SDK's allowDangerouslySkipPermissions)");
    }
  }
  context.session.setPermissionMode(mode);
  return ok({ mode });
}

function setModel(request: ControlRequestBody, context: ControlContext): ControlAnswer {
  const wanted = request.model;
  if (wanted !== undefined && wanted !== null && typeof wanted !== "string") return fail("set_model: model must be a string");
  const name = typeof wanted === "string" && wanted !== "" && wanted !== "default" ? wanted : "default";
  const { model, notes, refused } = context.session.setModel(name);
  if (refused) return fail(`set_model: ${refused}`);
  return ok({ model, ...(notes.length > 0 ? { notes } : {}) });
}

function mcpStatus(context: ControlContext): ControlAnswer {
  const servers = context.session.mcpStates().map((state) => ({
    name: state.name,
    status: state.status,
    ...(state.error !== undefined ? { error: state.error } : {}),
    scope: state.scope,
    source: state.scope,
  }));
  return ok({ mcpServers: servers });
}

function contextUsage(context: ControlContext): ControlAnswer {
  const { session } = context;
  const usage = session.contextUsage();
  const used = usage.systemTokens + usage.toolsTokens + usage.messagesTokens;
  const total = usage.lastRequestTokens ?? used;
  const free = Math.max(0, usage.windowTokens - total);
  const row = (id: string, name: string, tokens: number, kind: "used" | "free") => ({ id, name, tokens, color: kind === "free" ? "promptBorder" : "text", kind });
  return ok({
    categories: [
      row("system_prompt", "System prompt", usage.systemTokens, "used"),
      row("system_tools", "System tools", usage.toolsTokens, "used"),
      row("messages", "Messages", usage.messagesTokens, "used"),
      row("free_space", "Free space", free, "free"),
    ],
    totalTokens: total,
    maxTokens: usage.windowTokens,
    rawMaxTokens: usage.windowTokens,
    percentage: usage.windowTokens > 0 ? Math.round((total / usage.windowTokens) * 1000) / 10 : 0,
    gridRows: [],
    model: session.info.model,
    memoryFiles: session.info.instructionFiles.map((path) => ({ path, type: "Project", tokens: 0 })),
    mcpTools: [],
    agents: [],
    isAutoCompactEnabled: true,
    apiUsage: null,
  });
}

async function rewindFiles(request: ControlRequestBody, context: ControlContext): Promise<ControlAnswer> {
  if (!context.rewindFiles) return fail("rewind_files is not supported by this clew session");
  if (typeof request.user_message_id !== "string") return fail("rewind_files: user_message_id must be the uuid of a user message");
  return ok(await context.rewindFiles(request.user_message_id, request.dry_run === true));
}

export async function answerControl(request: ControlRequestBody, context: ControlContext): Promise<ControlAnswer> {
  switch (request.subtype) {
    case "interrupt":
      return ok(context.interrupt(request.cancel_queued === true));
    case "set_permission_mode":
      return setPermissionMode(request, context);
    case "set_model":
      return setModel(request, context);
    case "mcp_status":
      return mcpStatus(context);
    case "get_context_usage":
      return contextUsage(context);
    case "rewind_files":
      return rewindFiles(request, context);
    case "mcp_message": {
      const server = typeof request.server_name === "string" ? request.server_name : "";
      if (!context.deliverMcp(server, request.message)) return fail(`mcp_message: no in-process MCP server named ${JSON.stringify(server)} was registered in initialize`);
      return ok({ mcp_response: { jsonrpc: "2.0", result: {}, id: 0 } });
    }
    case "initialize":
      return fail(
        context.initialized
          ? "initialize was already answered: clew takes one initialize, as the first line of input"
          : "initialize must be the first line of input: this session already opened without one, so its system prompt, agents, hooks and in-process MCP servers can no longer change",
      );
    default: {
      const instead = NOT_SUPPORTED[request.subtype];
      return fail(`unsupported control request subtype ${JSON.stringify(request.subtype)}: clew does not implement it${instead ? `; ${instead}` : ""}`);
    }
  }
}
