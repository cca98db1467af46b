/** /sandbox: whether Bash runs in the OS sandbox here, and the boundary it runs in. */
import type { SlashCommand } from "./types.ts";

export const sandboxCommand: SlashCommand = {
  name: "sandbox",
  summary: "Show the Bash sandbox's state and what it allows",
  async run(_args, ctx) {
    const { sandboxLines, sandboxStatus } = await import("../../app/sandbox-status.ts");
    const { session, env } = ctx;
    const status = sandboxStatus({ settings: session.settings, cwd: session.info.cwd, homeDir: env.homeDir, configDir: env.configDir, path: env.childEnv.PATH ?? "" });
    const t = ctx.theme;
    const lines = status.config.enabled ? sandboxLines(status) : [];
    ctx.print([`${t.bold("Sandbox")}: ${status.summary}`, ...lines.map((line) => `  ${line}`)].join("\n"));
  },
};
