/**
 * `clew doctor`: the same checks as `/doctor`, without a session — no API key needed, and a
 * broken settings file is reported rather than fatal. Exit 1 when a check fails.
 */
import { extensionLines, hookConfigOf, hookLines, mcpLines, registryFor, sideModelId, updateLines } from "../app/diagnostics.ts";
import { loadSettings } from "../settings/load.ts";
import { withSettingsEnv } from "../settings/env-block.ts";
import type { Environment } from "../settings/paths.ts";
import type { CommandIO } from "./config-command.ts";
import { apiReachability, doctorChecks, renderDoctor } from "./doctor-checks.ts";
import { webSearchCheck } from "./doctor-web.ts";

export async function runDoctorCommand(processEnv: Environment, version: string, io: CommandIO): Promise<number> {
  const { sandboxCheck, sandboxStatus } = await import("../app/sandbox-status.ts");
  const loaded = loadSettings({ startDir: processEnv.cwd, configDir: processEnv.configDir, homeDir: processEnv.homeDir, managedDirs: processEnv.managedSettingsDirs, cli: {}, keepDenyOnError: true });
  // The endpoint and key a session would use, settings' `env` block included.
  const env = withSettingsEnv(processEnv, loaded, (line) => io.writeErr(`${line}\n`));
  const checks = doctorChecks({
    env,
    version,
    problems: loaded.problems,
    ...(loaded.settings.apiKeyHelper ? { keyHelper: loaded.settings.apiKeyHelper } : {}),
    settingsFiles: loaded.files.length,
    hooks: await hookLines(await hookConfigOf(loaded, env.cwd), env.homeDir),
    extensions: await extensionLines(await registryFor(env, loaded), env.homeDir, env.skillListingBudgetChars),
    mcp: await mcpLines(env, loaded),
    update: await updateLines(env, loaded.settings, version),
    sandbox: sandboxCheck(sandboxStatus({ settings: loaded, cwd: env.cwd, homeDir: env.homeDir, configDir: env.configDir, path: env.childEnv.PATH ?? "" })),
    ...(env.nonessentialTrafficDisabled ? {} : { api: await apiReachability(env, sideModelId(env)) }),
    web: await webSearchCheck({ env, rules: loaded.rules, model: sideModelId(env) }),
  });
  const plain = (text: string) => text;
  io.writeOut(`${["Doctor", ...renderDoctor(checks, { pass: plain, fail: plain, none: plain })].join("\n")}\n`);
  return checks.some((check) => check.ok === false) ? 1 : 0;
}
