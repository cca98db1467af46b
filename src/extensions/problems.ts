/** How an extension problem reads in `clew doctor` and `/skills`: `file:line: severity: message` (messages name their field). */
import type { ExtensionProblem } from "./types.ts";

/** `~/.clew/skills/x/SKILL.md` rather than `/home/me/.clew/skills/x/SKILL.md`. */
function shortPath(file: string, homeDir: string | undefined): string {
  if (homeDir && homeDir !== "/" && file.startsWith(`${homeDir}/`)) return `~${file.slice(homeDir.length)}`;
  return file;
}

export function formatExtensionProblem(problem: ExtensionProblem, homeDir?: string): string {
  const where = problem.line === undefined ? shortPath(problem.file, homeDir) : `${shortPath(problem.file, homeDir)}:${problem.line}`;
  return `${where}: ${problem.severity}: ${problem.message}`;
}
