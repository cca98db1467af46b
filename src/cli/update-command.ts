/**
 * `clew update [V] [--rollback] [--yes] [--channel latest|stable]`: the foreground update with
 * one progress line per step. Exit 0 when clew is current afterwards (updated, up to date, pinned,
 * or another update is already doing the work), 1 when a check failed (the installed binary is
 * then unchanged) or the command was misused.
 */
import { loadSettings } from "../settings/load.ts";
import type { Environment } from "../settings/paths.ts";
import { selfRollback, selfUpdate, updateContext, type UpdateContext, type UpdateOutcome } from "../app/self-update.ts";
import type { CommandIO } from "./config-command.ts";
import { isTerminal } from "./stdio.ts";

const USAGE = "usage: clew update [VERSION] [--rollback] [--yes] [--channel latest|stable]\n";

interface UpdateArgs {
  version?: string;
  rollback: boolean;
  yes: boolean;
  channel?: "latest" | "stable";
}

function parseUpdateArgs(argv: readonly string[]): UpdateArgs | string {
  const parsed: UpdateArgs = { rollback: false, yes: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--rollback") parsed.rollback = true;
    else if (arg === "--yes" || arg === "-y") parsed.yes = true;
    else if (arg === "--channel" || arg.startsWith("--channel=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (value !== "latest" && value !== "stable") return `--channel takes latest or stable, not ${value === undefined ? "nothing" : `'${value}'`}`;
      parsed.channel = value;
    } else if (/^v?\d+\.\d+\.\d+(-[^\s]+)?$/.test(arg) && parsed.version === undefined) parsed.version = arg.replace(/^v/, "");
    else return `unknown argument '${arg}' (a version looks like 1.2.3)`;
  }
  if (parsed.rollback && parsed.version !== undefined) return "--rollback restores the previous binary; it takes no version";
  return parsed;
}

async function ask(question: string): Promise<boolean> {
  if (!isTerminal(0) || !isTerminal(1)) return false;
  return globalThis.confirm(question);
}

function report(outcome: UpdateOutcome, context: UpdateContext, io: CommandIO, explicit: boolean): number {
  switch (outcome.kind) {
    case "updated":
      io.writeOut(`Successfully updated from ${outcome.from} to version ${outcome.to}\nThe previous binary is kept as ${outcome.previousPath} (clew update --rollback restores it). Restart clew to use ${outcome.to}.\n`);
      return 0;
    case "up-to-date":
      io.writeOut(outcome.latest === outcome.version ? `clew is up to date (${outcome.version})\n` : `clew is up to date (${outcome.version}; the ${context.policy.channel} channel offers ${outcome.latest})\n`);
      return 0;
    case "already-installed":
      io.writeOut(`clew ${outcome.version} is already installed at ${context.binaryPath}; restart clew to use it\n`);
      return 0;
    case "available":
      io.writeOut(`update available: clew ${outcome.version}\n`);
      return 0;
    case "busy":
      io.writeOut(`another clew update is running${outcome.holder === undefined ? "" : ` (pid ${outcome.holder})`}; it will finish the update, so this one stops here\n`);
      return 0;
    case "pinned":
      io.writeOut(`clew is pinned to ${outcome.version} (${outcome.by}); not updating\n`);
      return explicit ? 1 : 0;
    case "declined":
      io.writeOut(`Not installing clew ${outcome.version}${isTerminal(0) ? "" : " (no terminal to ask; add --yes to install an older version)"}\n`);
      return 0;
    case "rejected":
      io.writeErr(`clew update: the ${outcome.check} check failed: ${outcome.message}\nThe installed clew at ${context.binaryPath} is unchanged.\n`);
      return 1;
  }
}

export async function runUpdateCommand(argv: readonly string[], env: Environment, version: string, io: CommandIO): Promise<number> {
  if (env.update.disableUpdates) {
    io.writeErr("clew update: updates are turned off on this machine (DISABLE_UPDATES is set); install a new version the way this one was installed, or unset DISABLE_UPDATES\n");
    return 1;
  }
  const args = parseUpdateArgs(argv);
  if (typeof args === "string") {
    io.writeErr(`clew update: ${args}\n${USAGE}`);
    return 1;
  }
  const loaded = loadSettings({ startDir: env.cwd, configDir: env.configDir, homeDir: env.homeDir, managedDirs: env.managedSettingsDirs, cli: {}, keepDenyOnError: true });
  const context = updateContext(env, loaded.settings, version, args.channel);
  if (context.fromSource) {
    io.writeErr(`clew update: clew is running from source (${context.binaryPath}); self-update replaces a compiled clew binary — use git pull and bun run build here\n`);
    return 1;
  }
  if (args.rollback) {
    const restored = selfRollback(context);
    if (!restored.ok) {
      io.writeErr(`clew update --rollback: ${restored.message}\n`);
      return 1;
    }
    io.writeOut(`Restored the previous clew at ${context.binaryPath} (${version} is kept as ${context.binaryPath}.previous)\n`);
    return 0;
  }
  io.writeOut("Checking for updates…\n");
  const outcome = await selfUpdate(context, {
    ...(args.version !== undefined ? { version: args.version } : {}),
    yes: args.yes,
    confirm: ask,
    progress: (line) => io.writeOut(`${line}\n`),
  });
  return report(outcome, context, io, args.version !== undefined);
}
