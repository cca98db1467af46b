/**
 * `clew config [--origins] [--problems] [--settings …] [--setting-sources …] [flags]`: the
 * effective settings as JSON; `--origins` lists each leaf key path with the file or flag that set
 * it, then the rules that are present but not in force and why; `--problems` lists what was
 * skipped or ignored on stdout (problems always go to stderr otherwise). A file that doesn't parse
 * ends the command with its file:line error and exit 1 — except under `--origins`, which goes on
 * (so the broken file's rules can be listed as not in force) and exits 1 at the end.
 */
import { rulesNotInForce } from "../app/rule-report.ts";
import { type Environment } from "../settings/paths.ts";
import { describeOrigin, loadSettings } from "../settings/load.ts";
import { displayPath, formatProblem } from "../settings/problems.ts";
import type { SettingsProblem } from "../settings/types.ts";
import { FatalError } from "../util/errors.ts";
import { parseArgs } from "./args.ts";

export interface CommandIO {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

const USAGE =
  "usage: clew config [--origins] [--problems] [--settings <file-or-json>] [--setting-sources user,project,local]\n" +
  "                   [--model <m>] [--permission-mode <mode>] [--allowedTools …] [--disallowedTools …] [--add-dir …]";

const OWN_FLAGS = new Set(["--origins", "--problems"]);

function problemLines(problems: readonly SettingsProblem[], homeDir: string): string {
  return problems.map((problem) => `${problem.severity}: ${formatProblem(problem, homeDir)}\n`).join("");
}

/** `argv` is the whole command line, including the word `config`. */
export async function runConfigCommand(argv: readonly string[], env: Environment, io: CommandIO): Promise<number> {
  const showOrigins = argv.includes("--origins");
  const showProblems = argv.includes("--problems");
  const options = parseArgs(argv.filter((arg) => !OWN_FLAGS.has(arg)));
  if (options.help) {
    io.writeOut(`${USAGE}\n`);
    return 0;
  }
  if (options.command !== "config" || options.commandArgs.length > 0 || options.print) throw new FatalError("usage", `error: ${USAGE}`);
  const loaded = loadSettings({
    startDir: env.cwd,
    configDir: env.configDir,
    homeDir: env.homeDir,
    managedDirs: env.managedSettingsDirs,
    cli: options,
    keepDenyOnError: showOrigins,
  });
  if (showProblems) io.writeOut(problemLines(loaded.problems, env.homeDir));
  else io.writeErr(problemLines(loaded.problems, env.homeDir));
  if (showOrigins) {
    const entries = Object.entries(loaded.origins);
    const width = Math.max(0, ...entries.map(([path]) => path.length));
    io.writeOut(entries.map(([path, origin]) => `${path.padEnd(width)}  ${describeOrigin(origin, env.homeDir)}\n`).join(""));
    const dormant = rulesNotInForce(loaded);
    if (dormant.length > 0) {
      const lines = dormant.map((rule) => `  ${rule.kind} ${rule.text}  ${displayPath(rule.origin, env.homeDir)}: not in force: ${rule.why}${rule.fix ? `; to apply it, ${rule.fix}` : ""}\n`);
      io.writeOut(`\nrules present but not in force:\n${lines.join("")}`);
    }
    return loaded.problems.some((problem) => problem.severity === "error") ? 1 : 0;
  } else if (!showProblems) {
    io.writeOut(`${JSON.stringify(loaded.settings, null, 2)}\n`);
  }
  return 0;
}
