/** /config: the effective settings, or `/config origins` for which file set each key. */
import { describeOrigin } from "../../settings/load.ts";
import type { SlashCommand } from "./types.ts";

export const configCommand: SlashCommand = {
  name: "config",
  usage: "[origins]",
  summary: "Show the effective settings (origins: where each value came from)",
  run(args, ctx) {
    const loaded = ctx.session.settings;
    if (args.trim() === "origins") {
      const entries = Object.entries(loaded.origins);
      const width = Math.max(0, ...entries.map(([path]) => path.length));
      ctx.print(entries.length === 0 ? "No settings files set any key." : entries.map(([path, origin]) => `  ${path.padEnd(width)}  ${describeOrigin(origin, ctx.env.homeDir)}`).join("\n"));
      return;
    }
    if (args.trim() !== "") {
      ctx.error("Setting values from here is not supported yet: edit .clew/settings.json (or .clew/settings.local.json), or use clew config.");
      return;
    }
    ctx.print(`${ctx.theme.bold("Effective settings")} ${ctx.theme.dim("(/config origins: where each came from)")}\n${JSON.stringify(loaded.settings, null, 2)}`);
  },
};
