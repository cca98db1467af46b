/**
 * /add-dir PATH [--remember]: one more working directory for this session — the file tools may
 * read and edit there, checkpoints cover it from the next prompt. `--remember` also writes it to
 * the project's local settings (`permissions.additionalDirectories`), for the sessions to come.
 */
import { resolve } from "node:path";
import { expandHome } from "../../util/expand-home.ts";
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
    const dir = realDirectory(resolve(session.info.cwd, expandHome(given, ctx.env.homeDir)));
    if (!dir) {
      ctx.error(`/add-dir: ${given} is not a directory.`);
      return;
    }
    if (dir === realDirectory(session.info.cwd)) {
      ctx.print(`${dir} is the project folder: it is a working directory already.`);
      return;
    }
    const added = session.addWorkingDir(dir);
    ctx.print(added ? `Added ${dir} as a working directory for this session.` : `${dir} is a working directory already.`);
    if (!remember) return;
    const { readSettingsValue, setSettingsValue } = await import("../../settings/settings-writer.ts");
    const file = localSettingsPath(session.info.cwd);
    try {
      const current = readSettingsValue(file, ["permissions", "additionalDirectories"]);
      if (current !== undefined && !Array.isArray(current)) {
        ctx.error(`${file}: permissions.additionalDirectories is not a list; fix it by hand (${dir} was not added there).`);
        return;
      }
      // Whatever the list holds stays as it is, entries clew would not use included.
      const list: unknown[] = current ?? [];
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
