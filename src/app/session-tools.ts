/**
 * The tools a session offers, as one moving set: the built-ins the rules leave visible, then the
 * MCP tools of connected servers — deferred behind ToolSearch when they would crowd the window —
 * with the Agent tool's description listing the session's helper types. Between turns the set
 * follows the servers (connected late, died, list_changed) without touching the cached prefix of
 * a turn in progress: deferred definitions sit outside the prefix by the API's own rules.
 */
import type { ApiTool, MessageParam } from "../model/types.ts";
import type { AnyTool } from "../tools/types.ts";
import { toApiTool } from "./tool-set.ts";

import type { AppliedDeferral } from "../mcp/deferral/apply.ts";

export interface SessionToolsInput {
  builtins: readonly AnyTool[];
  mcpTools: () => AnyTool[];
  agentDescription: string;
  toolSearch: { setting: string | undefined; windowTokens: number; denied: boolean; betasDisabled: boolean };
  instructions: () => Record<string, string>;
}

export interface SessionTools {
  /** What the executor runs now. */
  tools: AnyTool[];
  /** `tools[]` of the next request. */
  apiTools: ApiTool[];
  /** Betas the requests need (tool search). */
  betas: string[];
  /** The deferred-tools catalogue to queue as a reminder, when there is a new one. */
  takeReminder(): string | undefined;
  prepare(messages: MessageParam[]): MessageParam[];
  search?: { search(query: string, max: number): string[] };
  /** Recomputes the set from the servers' current tools; returns whether anything changed. */
  refresh(): boolean;
}

export async function sessionTools(input: SessionToolsInput): Promise<SessionTools> {
  const toApi = (tool: AnyTool): ApiTool => (tool.name === "Agent" ? { ...toApiTool(tool), description: input.agentDescription } : toApiTool(tool));
  const mcp = input.mcpTools();
  if (mcp.length === 0 && input.toolSearch.setting === undefined) {
    // The common case: no MCP tool, so nothing to defer and nothing of the deferral code loaded.
    let reminder: string | undefined;
    const state: SessionTools = {
      tools: [...input.builtins],
      apiTools: input.builtins.map(toApi),
      betas: [],
      takeReminder: () => reminder,
      prepare: (messages) => messages,
      refresh: () => {
        const now = input.mcpTools();
        if (now.length === 0) return false;
        state.tools = [...input.builtins, ...now];
        state.apiTools = state.tools.map(toApi);
        reminder = undefined;
        return true;
      },
    };
    return state;
  }
  const [{ applyDeferral }, { toolSearchTool }] = await Promise.all([import("../mcp/deferral/apply.ts"), import("../tools/tool-search.ts")]);
  const applied: AppliedDeferral<ApiTool> = applyDeferral<ApiTool>({
    tools: [...input.builtins, ...mcp],
    toolSearchTool,
    toApiTool: toApi,
    setting: input.toolSearch.setting,
    windowTokens: input.toolSearch.windowTokens,
    toolSearchDenied: input.toolSearch.denied,
    betasDisabled: input.toolSearch.betasDisabled,
    instructions: input.instructions(),
  });
  let reminder = applied.reminder;
  let signature = mcp.map((tool) => tool.name).join("\n");
  const state: SessionTools = {
    tools: applied.tools,
    apiTools: applied.apiTools,
    betas: applied.betas,
    takeReminder: () => {
      const text = reminder;
      reminder = undefined;
      return text;
    },
    prepare: (messages) => applied.prepare(messages) as MessageParam[],
    ...(applied.toolSearch ? { search: applied.toolSearch } : {}),
    refresh: () => {
      const now = input.mcpTools();
      const next = now.map((tool) => tool.name).join("\n");
      if (next === signature) return false;
      signature = next;
      const fresh = applied.refresh([...input.builtins, ...now], input.instructions());
      state.tools = fresh.tools;
      state.apiTools = fresh.apiTools;
      if (fresh.reminder) reminder = fresh.reminder;
      return true;
    },
  };
  return state;
}
