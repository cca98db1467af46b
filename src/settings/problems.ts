/** How settings problems read on a terminal, and the error that stops a run on a broken file. */
import { FatalError } from "../util/errors.ts";
import type { SettingsProblem } from "./types.ts";

/** `~/.clew/settings.json` rather than `/home/me/.clew/settings.json`. */
export function displayPath(file: string, homeDir: string | undefined): string {
  if (homeDir && homeDir !== "/" && file.startsWith(`${homeDir}/`)) return `~${file.slice(homeDir.length)}`;
  return file;
}

/** `file:line:column: message`, the form editors and terminals turn into links. */
export function formatProblem(problem: SettingsProblem, homeDir?: string): string {
  const where = problem.line === undefined ? displayPath(problem.file, homeDir) : `${displayPath(problem.file, homeDir)}:${problem.line}:${problem.column ?? 1}`;
  return `${where}: ${problem.message}`;
}

/** A settings file could not be used at all; the run stops rather than continue without it. */
export class SettingsError extends FatalError {
  constructor(readonly problem: SettingsProblem, homeDir?: string) {
    super(
      "config",
      `clew: ${formatProblem(problem, homeDir)}`,
      "Fix the file (settings files are strict JSON) or move it aside, then run clew again.",
    );
    this.name = "SettingsError";
  }
}
