/**
 * The `hooks` section in Claude Code's shape: event → matcher groups → handlers. Parsed and typed
 * now so the hooks runner receives checked data; unknown fields inside groups and handlers are
 * kept (community files carry `description`, `enabled`, …).
 */
import { z } from "zod";

/** Events Claude Code defines (hooks.md §2). Other names are kept but reported, never run. */
export const HOOK_EVENTS: readonly string[] = [
  "SessionStart", "Setup", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PermissionRequest",
  "PermissionDenied", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "MessageDisplay",
  "SubagentStart", "SubagentStop", "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle",
  "InstructionsLoaded", "ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate",
  "WorktreeRemove", "PreCompact", "PostCompact", "Elicitation", "ElicitationResult", "SessionEnd",
];

const common = {
  if: z.string().optional(),
  timeout: z.number().positive().optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
};

export const commandHookSchema = z.looseObject({
  type: z.literal("command"),
  command: z.string(),
  args: z.array(z.string()).optional(),
  shell: z.enum(["bash", "powershell"]).optional(),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
  ...common,
});

export const httpHookSchema = z.looseObject({
  type: z.literal("http"),
  url: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  ...common,
});

export const mcpToolHookSchema = z.looseObject({
  type: z.literal("mcp_tool"),
  server: z.string(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()).optional(),
  ...common,
});

export const promptHookSchema = z.looseObject({
  type: z.literal("prompt"),
  prompt: z.string(),
  model: z.string().optional(),
  continueOnBlock: z.boolean().optional(),
  ...common,
});

export const agentHookSchema = z.looseObject({
  type: z.literal("agent"),
  prompt: z.string(),
  model: z.string().optional(),
  ...common,
});

export const hookHandlerSchema = z.discriminatedUnion("type", [
  commandHookSchema,
  httpHookSchema,
  mcpToolHookSchema,
  promptHookSchema,
  agentHookSchema,
]);

export const hookGroupSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(hookHandlerSchema),
});

export const hooksSchema = z.record(z.string(), z.array(hookGroupSchema));

export type HookHandler = z.infer<typeof hookHandlerSchema>;
export type CommandHook = z.infer<typeof commandHookSchema>;
export type HookGroup = z.infer<typeof hookGroupSchema>;
export type HooksSettings = z.infer<typeof hooksSchema>;
