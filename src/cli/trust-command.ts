/**
 * `clew trust [dir]`: marks a directory (default: the current one) as trusted, so its shared
 * project settings may allow tools and add directories (spec §2.6). Subdirectories are trusted
 * with it.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Environment } from "../settings/paths.ts";
import { trustDirectory } from "../settings/trust.ts";
import { FatalError } from "../util/errors.ts";
import type { CommandIO } from "./config-command.ts";

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `args` are the words after `trust`. */
export async function runTrustCommand(args: readonly string[], env: Environment, io: CommandIO): Promise<number> {
  if (args.length > 1 || args.some((arg) => arg.startsWith("-"))) {
    throw new FatalError("usage", "error: usage: clew trust [directory]");
  }
  const dir = resolve(env.cwd, args[0] ?? ".");
  if (!isDirectory(dir)) throw new FatalError("usage", `error: clew trust: ${dir} is not a directory.`);
  const trusted = trustDirectory(env.configDir, dir, { homeDir: env.homeDir });
  io.writeOut(
    `Trusted ${trusted} (and everything below it).\n` +
      "Its shared project settings (.clew/settings.json, .claude/settings.json) may now allow tools and add directories.\n",
  );
  return 0;
}
