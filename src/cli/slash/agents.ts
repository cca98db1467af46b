/** /agents: the helper types the Agent tool can start — built-ins and agent definitions — with where each is defined, and the worktrees helpers kept. */
import type { SlashCommand } from "./types.ts";

export const agentsCommand: SlashCommand = {
  name: "agents",
  summary: "List the helper agent types and where they are defined",
  async run(_args, ctx) {
    const types = await ctx.session.agentTypes();
    const lines = [ctx.theme.bold("Agents")];
    if (types.length === 0) lines.push("  none (helper agents are off in this session)");
    for (const type of types) {
      const origin = type.origin === "built-in" ? "built-in" : type.origin.replace(ctx.env.homeDir, "~");
      lines.push(`  ${type.name} ${ctx.theme.dim(`(${origin})`)}`, `    ${type.description.replace(/\s+/g, " ").slice(0, 160)}`);
    }
    const kept = await ctx.session.helperWorktrees();
    if (kept.length > 0) {
      lines.push(ctx.theme.bold("Helper worktrees with work on their branches"));
      for (const worktree of kept) lines.push(`  ${worktree.branch} ${ctx.theme.dim(worktree.path)}`);
    }
    ctx.print(lines.join("\n"));
  },
};
