/**
 * A tool is one file exporting one plain object of type `Tool`. Validation, the permission gate,
 * hooks, output truncation and error wrapping happen once, in loop/execute.ts — never in a tool.
 * A tool signals a problem the model should fix by throwing `ToolError` (util/errors.ts).
 */
import type { z } from "zod";
import type { DocumentBlockParam, ImageBlockParam, TextBlockParam, ToolReferenceBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessage, MessageParam, RequestTool } from "../model/types.ts";
import type { FileTracker } from "./shared/file-tracker.ts";
import type { ShellJobs } from "./shared/shell-jobs.ts";
import type { ShellLaunch } from "./shared/shell.ts";

import type { ToolAccess } from "../permissions/types.ts";

export type { ToolAccess };

/** `tool_reference` blocks (ToolSearch) make the API expand a deferred tool's definition at that point. */
export type ToolResultContent = string | Array<TextBlockParam | ImageBlockParam | DocumentBlockParam | ToolReferenceBlockParam>;

export interface ToolOutput {
  /** What the model sees. */
  content: ToolResultContent;
  /** Short, UI-facing summary: "Read 120 lines", "exit 1", a diff. Never sent to the model. */
  display?: ToolDisplay;
  /** Structured result for transcripts and stream-json (`toolUseResult`), e.g. Bash stdout/stderr. */
  data?: unknown;
  /** The call failed but its output is still useful (a command that timed out or was interrupted). */
  isError?: boolean;
}

export interface ToolDisplay {
  summary: string;
  /** Unified diff for Edit/Write, rendered by the UI. */
  diff?: string;
  /** Lines listed under the call's result line (WebSearch's titles and URLs), each cut to one row. */
  lines?: string[];
}

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
  activeForm: string;
}

export interface ToolLimits {
  bashDefaultTimeoutMs: number;
  bashMaxTimeoutMs: number;
  /** Characters of command output returned to the model before a truncation marker. */
  bashMaxOutputChars: number;
  /** Lines Read returns when no `limit` is given. */
  readDefaultLines: number;
  /** Characters per line before Read cuts the line with a marker. */
  readMaxLineChars: number;
  /** Estimated tokens a text Read may return; more is refused with a pointer to offset/limit (Claude Code: 25,000). */
  readMaxTokens: number;
  /**
   * Grep searches a tree of at most this many files in process even when ripgrep is installed
   * (for patterns both engines read alike): starting ripgrep costs more than such a search.
   */
  grepInProcessMaxFiles: number;
}

export const defaultToolLimits: ToolLimits = {
  bashDefaultTimeoutMs: 120_000,
  bashMaxTimeoutMs: 600_000,
  bashMaxOutputChars: 30_000,
  readDefaultLines: 2000,
  readMaxLineChars: 2000,
  readMaxTokens: 25_000,
  grepInProcessMaxFiles: 64,
};

/** State that lives for the whole session and is shared by every tool call. */
export interface ToolSession {
  /** Directory the session started in; relative paths resolve against `cwd`. */
  readonly projectDir: string;
  /** Bash's working directory; a `cd` in one command carries over to the next. */
  cwd: string;
  readonly files: FileTracker;
  readonly shells: ShellJobs;
  todos: TodoItem[];
  /** Environment for child processes (settings `env` already applied). */
  readonly env: Readonly<Record<string, string>>;
  readonly limits: ToolLimits;
  /** Where tools save outputs too large to return whole (undefined: nowhere, e.g. no transcript). */
  readonly spillDir?: string;
  /** Files a `Read` deny rule covers: search tools leave them out of their results. */
  readonly readDenied?: (absPath: string) => boolean;
  /** Loads a skill for the Skill tool (the session's extension registry); absent without skills. */
  readonly skills?: SkillLoader;
  /** Searches the deferred tools for ToolSearch; absent when no tool is deferred. */
  readonly toolSearch?: { search(query: string, max: number): string[] /* tool names */ };
  /** Runs helper agents for the Agent and SendMessage tools; absent where helpers may not start more. */
  readonly agents?: AgentPort;
  /** The model the session talks to now: Read sends PDFs as documents only to models that take them. */
  readonly currentModel?: () => string;
  /** One short request to a small, fast model (WebFetch's prompt over a page, WebSearch's search). */
  readonly sideModel?: SideModelPort;
  /** The OS sandbox Bash runs commands in; absent when it is off or cannot start here. */
  readonly sandbox?: SandboxPort;
}

/** What a Bash call asks the sandbox. */
export interface SandboxRequest {
  command: string;
  cwd: string;
  /** The model's escape request; honoured only where `sandbox.allowUnsandboxedCommands` is true. */
  dangerouslyDisableSandbox?: boolean;
}

export type SandboxPlan =
  | { sandboxed: false; why: string }
  | {
      sandboxed: true;
      launch: ShellLaunch;
      /** After the command: what the sandbox blocked and how the user can allow it, for the model (undefined: nothing blocked). */
      explain(output: { stdout: string; stderr: string; exitCode: number | null }): string | undefined;
    };

export interface SandboxPort {
  /** How one command runs: inside the sandbox (excludedCommands and honoured escape requests run outside). */
  prepare(request: SandboxRequest): Promise<SandboxPlan>;
  /** Stops the proxy and the network forwarder and removes the session's sandbox folder (also done at exit). */
  close(): void;
  /**
   * The same sandbox for a helper agent in its own git worktree (`isolation: worktree`): that
   * worktree, and what a commit there writes in the repository's `.git`, are writable instead of
   * the project, which stays readable. It shares the session's sandbox; closing it does nothing.
   */
  forWorktree(path: string): SandboxPort;
  /** A working directory added mid-session (`/add-dir`) is writable for the commands started from now on. */
  addWorkingDir(path: string): void;
}

export interface SideModelRequest {
  system: string;
  messages: MessageParam[];
  /** Server tools (web search) or client tools the reply may call; none by default. */
  tools?: RequestTool[];
  maxTokens?: number;
  /** A model alias or id; the small fast model (`haiku`, ANTHROPIC_DEFAULT_HAIKU_MODEL) by default. */
  model?: string;
}

/** Its usage is counted with the session's (`/cost`, the json result's `modelUsage`, `--max-budget-usd`). */
export interface SideModelPort {
  request(input: SideModelRequest, signal: AbortSignal): Promise<AssistantMessage>;
}

/** The Agent tool's input, as Claude Code's schema has it. */
export interface AgentCallInput {
  description: string;
  prompt: string;
  subagent_type?: string;
  model?: string;
  run_in_background?: boolean;
  isolation?: "worktree";
  name?: string;
}

export interface AgentPort {
  run(input: AgentCallInput, ctx: ToolContext): Promise<ToolOutput>;
  /** SendMessage: resume a helper by agent id or name with a new message. */
  send(input: { to: string; message: string }, ctx: ToolContext): Promise<ToolOutput>;
}

export interface SkillLoader {
  /** The rendered skill, or why it cannot be used (unknown, not model-invocable, a `!` command refused). */
  load(name: string, args: string, signal: AbortSignal): Promise<{ ok: true; text: string } | { ok: false; message: string }>;
}

export interface ToolContext {
  readonly toolUseId: string;
  readonly signal: AbortSignal;
  readonly session: ToolSession;
}

/** A JSON Schema object as the API's `input_schema` takes it. */
export interface JsonInputSchema {
  type: "object";
  properties?: unknown;
  required?: string[] | null;
  [key: string]: unknown;
}

/** Where a tool that is not built in came from (MCP servers today). */
export interface ToolOrigin {
  kind: "mcp";
  server: string;
  /** The tool's own name on its server (the model sees `mcp__<server>__<tool>`). */
  tool: string;
  /** Never deferred behind ToolSearch (server `alwaysLoad`, or the tool's `_meta["anthropic/alwaysLoad"]`). */
  alwaysLoad: boolean;
  /** `_meta["anthropic/requiresUserInteraction"]`: every call asks a human. */
  requiresUserInteraction: boolean;
}

export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly input: Schema;
  /**
   * The schema sent to the API when it is not derived from `input`: an MCP tool's own JSON
   * Schema goes out as the server wrote it (its server validates the call).
   */
  readonly inputSchema?: JsonInputSchema;
  readonly origin?: ToolOrigin;
  readonly access: ToolAccess;
  /** The string permission rules match: a path for file tools, the command for Bash. */
  subject(input: z.infer<Schema>, session: ToolSession): string;
  run(input: z.infer<Schema>, ctx: ToolContext): Promise<ToolOutput>;
}

/** Erases the schema parameter so heterogeneous tools fit in one array. */
export type AnyTool = Tool<z.ZodType>;

export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): AnyTool {
  return tool as unknown as AnyTool;
}
