/**
 * Which tools a helper gets (spec C.5): the type's allowlist (or everything helpers may have),
 * minus its denylist, minus the tools no helper has; the Agent tool only while the nesting limit
 * allows another layer. Names are matched as agent files write them: legacy names, `mcp__server`
 * prefixes, `Agent(type, …)` restrictions, rule-style `Bash(git *)`.
 */
import type { AnyTool } from "../../tools/types.ts";

/** Tools that belong to the main conversation only. */
const NEVER_FOR_HELPERS = new Set(["AskUserQuestion", "EndConversation", "EnterPlanMode", "ExitPlanMode", "ScheduleWakeup", "StructuredOutput", "TaskOutput", "WaitForMcpServers", "Workflow"]);

const LEGACY_NAMES: Record<string, string> = { Task: "Agent", MultiEdit: "Edit", LS: "Glob", NotebookRead: "Read", KillBash: "KillShell" };

/** Built-ins a background helper keeps (it has every MCP tool as well). */
const BACKGROUND_BUILTINS = new Set(["Read", "Grep", "Glob", "Bash", "BashOutput", "KillShell", "Edit", "Write", "NotebookEdit", "WebFetch", "WebSearch", "TodoWrite", "Skill", "ToolSearch", "SendMessage"]);

const NESTING_TOOLS = new Set(["Agent", "SendMessage"]);

/** `Bash(git *)` → `Bash`, `Task` → `Agent`, surrounding space removed. */
function baseName(entry: string): string {
  const trimmed = entry.trim();
  const paren = trimmed.indexOf("(");
  const name = paren > 0 ? trimmed.slice(0, paren).trim() : trimmed;
  return LEGACY_NAMES[name] ?? name;
}

function matcher(entry: string): (tool: AnyTool) => boolean {
  const name = baseName(entry);
  if (name === "*") return () => true;
  if (name === "mcp__*") return (tool) => tool.name.startsWith("mcp__");
  if (name.startsWith("mcp__")) {
    const server = name.endsWith("__*") ? name.slice(0, -3) : name;
    const isServer = !server.slice("mcp__".length).includes("__");
    return isServer ? (tool) => tool.name.startsWith(`${server}__`) : (tool) => tool.name === server;
  }
  return (tool) => tool.name === name;
}

export interface HelperToolChoice {
  tools: AnyTool[];
  /** Allowlist entries that matched nothing (ignored, as Claude Code ignores them). */
  unmatched: string[];
}

export function helperTools(
  available: readonly AnyTool[],
  selection: { tools?: readonly string[]; disallowedTools: readonly string[] },
  options: { nesting: boolean; background: boolean },
): HelperToolChoice {
  const removed = selection.disallowedTools.map(matcher);
  const unmatched: string[] = [];
  let chosen: AnyTool[];
  if (selection.tools === undefined) chosen = [...available];
  else {
    const wanted = selection.tools.map((entry) => ({ entry, test: matcher(entry) }));
    for (const { entry, test } of wanted) if (!available.some(test) && !NESTING_TOOLS.has(baseName(entry))) unmatched.push(entry);
    chosen = available.filter((tool) => wanted.some(({ test }) => test(tool)));
  }
  chosen = chosen.filter((tool) => {
    if (NEVER_FOR_HELPERS.has(tool.name)) return false;
    if (NESTING_TOOLS.has(tool.name) && !options.nesting) return false;
    if (options.background && !tool.name.startsWith("mcp__") && !BACKGROUND_BUILTINS.has(tool.name)) return false;
    return !removed.some((test) => test(tool));
  });
  return { tools: chosen, unmatched };
}
