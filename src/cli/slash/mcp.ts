/** /mcp: every configured MCP server — scope, state, tools — and why one is not connected, with its last stderr lines. */
import type { SlashCommand } from "./types.ts";

export const mcpCommand: SlashCommand = {
  name: "mcp",
  summary: "List MCP servers, their state and their tools",
  async run(_args, ctx) {
    const states = ctx.session.mcpStates();
    if (states.length === 0) {
      ctx.print(`${ctx.theme.bold("MCP servers")}\n  none configured (add one with clew mcp add, or a .mcp.json in the project)`);
      return;
    }
    const lines = [ctx.theme.bold("MCP servers")];
    for (const state of states) {
      const mark = state.status === "connected" ? ctx.theme.green("✔") : state.status === "pending" ? ctx.theme.dim("…") : ctx.theme.red("✘");
      const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
      const counts = state.status === "connected" ? ` · ${plural(state.toolCount, "tool")}${state.promptCount ? ` · ${plural(state.promptCount, "prompt")}` : ""}${state.resourceCount ? ` · ${plural(state.resourceCount, "resource")}` : ""}` : "";
      lines.push(`  ${mark} ${state.name} (${state.scope}) — ${state.status}${counts}${state.error ? `: ${state.error}` : ""}`);
      for (const line of state.status === "connected" ? [] : state.stderrTail.slice(-3)) lines.push(ctx.theme.dim(`      ${line}`));
    }
    ctx.print(lines.join("\n"));
  },
};
