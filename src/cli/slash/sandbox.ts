/**
 * /sandbox: whether Bash runs in the OS sandbox here, and the boundary it runs in. `/sandbox on`
 * and `/sandbox off` write `sandbox.enabled` to the local project settings (spec §7.4), for the
 * sessions that start from then on.
 */
import { localSettingsPath } from "../../settings/local-writer.ts";
import type { SlashCommand } from "./types.ts";

export const sandboxCommand: SlashCommand = {
  name: "sandbox",
  usage: "[on|off]",
  summary: "Show the Bash sandbox's state and what it allows; on/off sets it for this project",
  async run(args, ctx) {
    const { session, env } = ctx;
    const word = args.trim().toLowerCase();
    if (word === "on" || word === "off") {
      const { setSettingsValue } = await import("../../settings/settings-writer.ts");
      try {
        const write = setSettingsValue(localSettingsPath(session.info.cwd), ["sandbox", "enabled"], word === "on");
        ctx.print(`${write.changed ? "Set" : "Already set:"} sandbox.enabled to ${word === "on"} in ${write.file}; it applies from the next session (restart clew).`);
      } catch (error) {
        ctx.error(error instanceof Error ? error.message : String(error));
      }
      return;
    }
    if (word !== "") {
      ctx.error(`/sandbox takes "on", "off" or nothing (got "${args.trim()}").`);
      return;
    }
    const { sandboxLines, sandboxStatus } = await import("../../app/sandbox-status.ts");
    const status = sandboxStatus({ settings: session.settings, cwd: session.info.cwd, homeDir: env.homeDir, configDir: env.configDir, path: env.childEnv.PATH ?? "" });
    const lines = status.config.enabled ? sandboxLines(status) : [];
    ctx.print([`${ctx.theme.bold("Sandbox")}: ${status.summary}`, ...lines.map((line) => `  ${line}`)].join("\n"));
  },
};
