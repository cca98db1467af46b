/**
 * The built-in tools in the fixed order the model sees them (a stable order keeps the prompt
 * cache warm). Kept apart from tool-set.ts so the build-time schema macro can import the list
 * without importing itself.
 */
import { agentTool } from "../tools/agent.ts";
import { bashOutputTool } from "../tools/bash-output.ts";
import { bashTool } from "../tools/bash.ts";
import { editTool } from "../tools/edit.ts";
import { globTool } from "../tools/glob.ts";
import { grepTool } from "../tools/grep.ts";
import { killShellTool } from "../tools/kill-shell.ts";
import { notebookEditTool } from "../tools/notebook-edit.ts";
import { readTool } from "../tools/read.ts";
import { sendMessageTool } from "../tools/send-message.ts";
import { skillTool } from "../tools/skill.ts";
import { todoWriteTool } from "../tools/todo-write.ts";
import type { AnyTool } from "../tools/types.ts";
import { webFetchTool } from "../tools/web-fetch.ts";
import { webSearchTool } from "../tools/web-search.ts";
import { writeTool } from "../tools/write.ts";

export const builtinTools: readonly AnyTool[] = [
  bashTool,
  bashOutputTool,
  killShellTool,
  globTool,
  grepTool,
  readTool,
  editTool,
  writeTool,
  notebookEditTool,
  webFetchTool,
  webSearchTool,
  todoWriteTool,
  // Offered only when the session has a skill the model may call.
  skillTool,
  // Helper agents: offered while the nesting limit allows another layer.
  agentTool,
  sendMessageTool,
];
