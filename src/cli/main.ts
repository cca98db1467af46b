/**
 * Turns argv into a mode and runs it. Maps errors to exit codes: usage and fatal errors print
 * one clear message on stderr and exit 1.
 */
import { readEnvironment } from "../settings/paths.ts";
import { ClewError } from "../util/errors.ts";
import { parseArgs } from "./args.ts";
import help from "./help.md" with { type: "text" };
import type { PrintIO } from "./print.ts";

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  try {
    return await Bun.stdin.text();
  } catch {
    process.stderr.write("clew: warning: could not read stdin; continuing with the prompt argument\n");
    return "";
  }
}

function writeOut(text: string): void {
  process.stdout.write(text);
}

function writeErr(text: string): void {
  process.stderr.write(text);
}

async function runConfig(argv: readonly string[]): Promise<number> {
  const { runConfigCommand } = await import("./config-command.ts");
  return await runConfigCommand(argv, readEnvironment(), { writeOut, writeErr });
}

export async function main(argv: readonly string[], version: string): Promise<number> {
  try {
    // `config` and `trust` take flags of their own, so they are routed before the main parser.
    if (argv[0] === "config") return await runConfig(argv);
    if (argv[0] === "trust") {
      const { runTrustCommand } = await import("./trust-command.ts");
      return await runTrustCommand(argv.slice(1), readEnvironment(), { writeOut, writeErr });
    }
    const options = parseArgs(argv);
    if (options.version) {
      writeOut(`${version} (clew)\n`);
      return 0;
    }
    if (options.help) {
      writeOut(help);
      return 0;
    }
    if (options.command === "config") return await runConfig(argv);
    if (options.command) {
      writeErr(`clew: '${options.command}' is not available in this build yet.\n`);
      return 1;
    }
    const env = readEnvironment();
    if (!options.print) {
      // Loaded only when a session runs, like print mode.
      const { runInteractive } = await import("./interactive.ts");
      return await runInteractive(options, env, version);
    }
    const io: PrintIO = {
      write: writeOut,
      writeError: writeErr,
      stdoutIsTTY: process.stdout.isTTY === true,
      readStdin,
      onSignal: (handler) => {
        process.on("SIGINT", () => handler("SIGINT"));
        process.on("SIGTERM", () => handler("SIGTERM"));
      },
    };
    // Loaded only when a session runs, so --version and --help stay at the runtime's floor.
    const { runPrint } = await import("./print.ts");
    return await runPrint(options, env, version, io);
  } catch (error) {
    if (error instanceof ClewError) {
      writeErr(`${error.message}\n${error.hint ? `${error.hint}\n` : ""}`);
      return 1;
    }
    throw error;
  }
}
