/** /doctor: checks of the installation and setup, each with what to do when it fails. */
import { mcpLines } from "../../app/diagnostics.ts";
import { withSettingsEnv } from "../../settings/env-block.ts";
import { doctorChecks, renderDoctor } from "../doctor-checks.ts";
import type { SlashCommand } from "./types.ts";

export const doctorCommand: SlashCommand = {
  name: "doctor",
  summary: "Check the installation, settings, credentials, hooks, skills and commands",
  async run(_args, ctx) {
    // No request to the endpoint from inside a session: `clew doctor` probes the API and web search.
    const { sandboxCheck, sandboxStatus } = await import("../../app/sandbox-status.ts");
    const t = ctx.theme;
    const { session } = ctx;
    // What the session runs with: the settings' `env` block applied, as at its start.
    const env = withSettingsEnv(ctx.env, session.settings, () => undefined);
    const checks = doctorChecks({
      env,
      version: session.info.version,
      problems: session.settings.problems,
      ...(session.settings.settings.apiKeyHelper ? { keyHelper: session.settings.settings.apiKeyHelper } : {}),
      settingsFiles: session.settings.files.length,
      hooks: await session.hookListing(env.homeDir),
      extensions: await session.extensionListing(env.homeDir),
      mcp: await mcpLines(env, session.settings),
      sandbox: sandboxCheck(sandboxStatus({ settings: session.settings, cwd: env.cwd, homeDir: env.homeDir, configDir: env.configDir, path: env.childEnv.PATH ?? "" })),
    });
    ctx.print([t.bold("Doctor"), ...renderDoctor(checks, { pass: t.green, fail: t.red, none: t.dim })].join("\n"));
  },
};
