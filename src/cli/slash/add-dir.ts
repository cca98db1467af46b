/**
 * /add-dir PATH [--remember]: one more working directory for this session — the file tools may
 * read and edit there, checkpoints cover it from the next prompt. `--remember` also writes it to
 * the project's local settings (`permissions.additionalDirectories`), for the sessions to come.
 */
import { resolve } from "node:path";
import { localSettingsPath } from "../../settings/local-writer.ts";
import { realDirectory } from "../../util/real-directory.ts";
import type { SlashCommand } from "./types.ts";

export const addDirCommand: SlashCommand = {
  name: "add-dir",
  usage: "<path> [--remember]",
  summary: "Add a working directory for this session (--remember keeps it for this project)",
  async run(args, ctx) {
    const words = args.trim().split(/\s+/).filter(Boolean);
    const remember = words.includes("--remember");
    const given = words.filter((word) => word !== "--remember").join(" ").replace(/^["']|["']$/g, "");
    if (given === "") {
      ctx.error("/add-dir needs a directory: /add-dir ../shared-lib [--remember]");
      return;
    }
    const { session } = ctx;
    const expanded = given === "~" || given.startsWith("~/") ? `${ctx.env.homeDir}${given.slice(1)}` : given;
    const dir = realDirectory(resolve(session.info.cwd, expanded));
    if (!dir) {
      ctx.error(`/add-dir: ${given} is not a directory.`);
      return;
    }
    const added = session.addWorkingDir(dir);
    ctx.print(added ? `Added ${dir} as a working directory for this session.` : `${dir} is a working directory already.`);
    if (!remember) return;
    const { readSettingsValue, setSettingsValue } = await import("../../settings/settings-writer.ts");
    const file = localSettingsPath(session.info.cwd);
    try {
      const current = readSettingsValue(file, ["permissions", "additionalDirectories"]);
      const list = Array.isArray(current) ? current.filter((item): item is string => typeof item === "string") : [];
      if (list.includes(dir)) {
        ctx.print(`Already in ${file}.`);
        return;
      }
      const write = setSettingsValue(file, ["permissions", "additionalDirectories"], [...list, dir]);
      ctx.print(`Kept for this project in ${write.file}.`);
    } catch (error) {
      ctx.error(error instanceof Error ? error.message : String(error));
    }
  },
};
