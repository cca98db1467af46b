/**
 * Turns argv into a mode and runs it. Maps errors to exit codes: usage and fatal errors print
 * one clear message on stderr and exit 1.
 */
import { readEnvironment, type Environment } from "../settings/paths.ts";
import { updatePending } from "../app/update-pending.ts";
import { ClewError } from "../util/errors.ts";
import { parseArgs } from "./args.ts";
import help from "./help.md" with { type: "text" };
import type { PrintIO } from "./print.ts";
import { isTerminal, readStdinNow, writeAll } from "./stdio.ts";

async function readStdin(): Promise<string> {
  if (isTerminal(0)) return "";
  const now = readStdinNow();
  if (now !== undefined) return now;
  try {
    return await Bun.stdin.text();
  } catch {
    writeErr("clew: warning: could not read stdin; continuing with the prompt argument\n");
    return "";
  }
}

function writeOut(text: string): void {
  writeAll(1, text);
}

function writeErr(text: string): void {
  writeAll(2, text);
}

/**
 * The interactive UI writes through `process.stdout`: let what it buffered drain to a slow
 * consumer before exiting, but never wait forever (a terminal that went away never drains).
 */
async function drainStdout(): Promise<void> {
  await Promise.race([new Promise<void>((resolve) => process.stdout.write("", () => resolve())), Bun.sleep(5_000)]);
}

async function runConfig(argv: readonly string[]): Promise<number> {
  const { runConfigCommand } = await import("./config-command.ts");
  return await runConfigCommand(argv, readEnvironment(), { writeOut, writeErr });
}

const NOT_SESSIONS = new Set(["config", "doctor", "trust", "mcp", "plugin", "plugins", "update", "upgrade", "auth", "setup-token"]);

/**
 * After a self-update, a version that crashed before its first request is replaced by the one
 * before it on the next start (one stat when no update is pending). Returns an exit code when this
 * start was handed to the restored binary.
 */
/** The process's environment, read once: the rollback check and the session both need it. */
let readOnce: Environment | undefined;
function environment(): Environment {
  readOnce ??= readEnvironment();
  return readOnce;
}

async function afterUpdateCheck(argv: readonly string[], version: string): Promise<number | undefined> {
  if (argv.some((arg) => arg === "--version" || arg === "-v" || arg === "--help" || arg === "-h")) return undefined;
  // Almost every start: no update is waiting to prove itself, and the check's code stays unloaded.
  if (!updatePending(environment().configDir)) return undefined;
  const { startupRollbackCheck } = await import("../app/update-startup.ts");
  const start = startupRollbackCheck(environment(), version, !NOT_SESSIONS.has(argv[0] ?? ""));
  if (start.kind === "rollback-failed") writeErr(`clew: could not roll back ${start.version}: ${start.message}\n`);
  if (start.kind !== "rolled-back") return undefined;
  writeErr(`clew ${start.from} did not start after the update; restored ${start.to}\n`);
  return await Bun.spawn([start.binaryPath, ...argv], { stdio: ["inherit", "inherit", "inherit"] }).exited;
}

async function notACrash(): Promise<void> {
  try {
    (await import("../app/update-startup.ts")).startupHealthy(readEnvironment());
  } catch {
    // The mark is best-effort: without it the next start may roll back, which is the safe side.
  }
}

export async function main(argv: readonly string[], version: string): Promise<number> {
  try {
    const restarted = await afterUpdateCheck(argv, version);
    if (restarted !== undefined) return restarted;
    // `config` and `trust` take flags of their own, so they are routed before the main parser.
    if (argv[0] === "config") return await runConfig(argv);
    if (argv[0] === "doctor") {
      const { runDoctorCommand } = await import("./doctor-command.ts");
      return await runDoctorCommand(readEnvironment(), version, { writeOut, writeErr });
    }
    if (argv[0] === "auth" || argv[0] === "setup-token") {
      const { runAuthCommand, setupTokenRefusal } = await import("./auth-command.ts");
      return argv[0] === "auth" ? await runAuthCommand(argv.slice(1), readEnvironment(), { writeOut, writeErr }) : setupTokenRefusal({ writeOut, writeErr });
    }
    if (argv[0] === "trust") {
      const { runTrustCommand } = await import("./trust-command.ts");
      return await runTrustCommand(argv.slice(1), readEnvironment(), { writeOut, writeErr });
    }
    if (argv[0] === "mcp") {
      const { runMcpCommand } = await import("./mcp-command.ts");
      return await runMcpCommand(argv.slice(1), readEnvironment(), { writeOut, writeErr, readStdin: () => Bun.stdin.text() });
    }
    if (argv[0] === "plugin" || argv[0] === "plugins") {
      const { runPluginCommand } = await import("./plugin-command.ts");
      return await runPluginCommand(argv.slice(1), readEnvironment(), { writeOut, writeErr });
    }
    if (argv[0] === "update" || argv[0] === "upgrade") {
      const { runUpdateCommand } = await import("./update-command.ts");
      return await runUpdateCommand(argv.slice(1), readEnvironment(), version, { writeOut, writeErr });
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
    if (options.autoModeUnavailable) writeErr("clew: auto mode is not available in clew; starting in default mode (actions that need approval ask, or are denied in -p).\n");
    if (options.command === "config") return await runConfig(argv);
    if (options.command) {
      writeErr(`clew: '${options.command}' is not available in this build yet.\n`);
      return 1;
    }
    if (options.worktree !== undefined) {
      // Before anything reads the working directory: the session, its settings and its tools all start there.
      const { openSessionWorktree } = await import("../app/session-worktree.ts");
      const worktree = await openSessionWorktree(process.cwd(), options.worktree || undefined);
      process.chdir(worktree.path);
      readOnce = undefined;
      writeErr(`clew: ${worktree.created ? "working in a new worktree" : "working in the worktree"} ${worktree.path} (branch ${worktree.branch})\n`);
    }
    const env = environment();
    if (options.rewindTo !== undefined) {
      if (!options.print) throw new ClewError("usage", "error: --rewind-to works with -p: clew -p -r <session id> --rewind-to N (in a session, /rewind or Esc Esc).");
      const { runHeadlessRewind } = await import("./rewind-headless.ts");
      return await runHeadlessRewind(options, env, version, { write: writeOut, writeError: writeErr });
    }
    if (!options.print && !options.initOnly) {
      // Loaded only when a session runs, like print mode.
      const { runInteractive } = await import("./interactive.ts");
      try {
        return await runInteractive(options, env, version);
      } finally {
        await drainStdout();
      }
    }
    const io: PrintIO = {
      write: writeOut,
      writeError: writeErr,
      stdoutIsTTY: isTerminal(1),
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
      // A clear error (no credentials, a bad flag) is this version working as meant, not a crash:
      // after a self-update it must not roll the update back.
      await notACrash();
      return 1;
    }
    throw error;
  }
}
