/**
 * The `hooks` section in Claude Code's shape: event → matcher groups → handlers. Parsed and typed
 * now so the hooks runner receives checked data; unknown fields inside groups and handlers are
 * kept (community files carry `description`, `enabled`, …).
 */
import type { z } from "zod";
import { lazySchema, type ZodApi } from "../../util/lazy-schema.ts";

/** Events Claude Code defines (hooks.md §2). Other names are kept but reported, never run. */
export const HOOK_EVENTS: readonly string[] = [
  "SessionStart", "Setup", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PermissionRequest",
  "PermissionDenied", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "MessageDisplay",
  "SubagentStart", "SubagentStop", "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle",
  "InstructionsLoaded", "ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate",
  "WorktreeRemove", "PreCompact", "PostCompact", "Elicitation", "ElicitationResult", "SessionEnd",
];

function handlerSchemas(z: ZodApi) {
  const common = {
    if: z.string().optional(),
    timeout: z.number().positive().optional(),
    statusMessage: z.string().optional(),
    once: z.boolean().optional(),
  };
  return {
    command: z.looseObject({
      type: z.literal("command"),
      command: z.string(),
      args: z.array(z.string()).optional(),
      shell: z.enum(["bash", "powershell"]).optional(),
      async: z.boolean().optional(),
      asyncRewake: z.boolean().optional(),
      ...common,
    }),
    http: z.looseObject({
      type: z.literal("http"),
      url: z.string(),
      headers: z.record(z.string(), z.string()).optional(),
      allowedEnvVars: z.array(z.string()).optional(),
      ...common,
    }),
    mcpTool: z.looseObject({
      type: z.literal("mcp_tool"),
      server: z.string(),
      tool: z.string(),
      input: z.record(z.string(), z.unknown()).optional(),
      ...common,
    }),
    prompt: z.looseObject({
      type: z.literal("prompt"),
      prompt: z.string(),
      model: z.string().optional(),
      continueOnBlock: z.boolean().optional(),
      ...common,
    }),
    agent: z.looseObject({
      type: z.literal("agent"),
      prompt: z.string(),
      model: z.string().optional(),
      ...common,
    }),
  };
}

type HandlerSchemas = ReturnType<typeof handlerSchemas>;

export const hookHandlerSchema = lazySchema((z) => {
  const { command, http, mcpTool, prompt, agent } = handlerSchemas(z);
  return z.discriminatedUnion("type", [command, http, mcpTool, prompt, agent]);
});

export const hookGroupSchema = lazySchema((z) =>
  z.looseObject({
    matcher: z.string().optional(),
    hooks: z.array(hookHandlerSchema()),
  }),
);

export const hooksSchema = lazySchema((z) => z.record(z.string(), z.array(hookGroupSchema())));

export type HookHandler = z.infer<ReturnType<typeof hookHandlerSchema>>;
export type CommandHook = z.infer<HandlerSchemas["command"]>;
export type HookGroup = z.infer<ReturnType<typeof hookGroupSchema>>;
export type HooksSettings = z.infer<ReturnType<typeof hooksSchema>>;
