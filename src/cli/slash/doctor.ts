/** /doctor: checks of the installation and setup, each with what to do when it fails. */
import { mcpLines } from "../../app/diagnostics.ts";
import { doctorChecks, renderDoctor } from "../doctor-checks.ts";
import type { SlashCommand } from "./types.ts";

export const doctorCommand: SlashCommand = {
  name: "doctor",
  summary: "Check the installation, settings, credentials, hooks, skills and commands",
  async run(_args, ctx) {
    // No request to the endpoint from inside a session: `clew doctor` probes the API and web search.
    const { sandboxCheck, sandboxStatus } = await import("../../app/sandbox-status.ts");
    const t = ctx.theme;
    const { session, env } = ctx;
    const checks = doctorChecks({
      env,
      version: session.info.version,
      problems: session.settings.problems,
      settingsFiles: session.settings.files.length,
      hooks: await session.hookListing(env.homeDir),
      extensions: await session.extensionListing(env.homeDir),
      mcp: await mcpLines(env, session.settings),
      sandbox: sandboxCheck(sandboxStatus({ settings: session.settings, cwd: env.cwd, homeDir: env.homeDir, configDir: env.configDir, path: env.childEnv.PATH ?? "" })),
    });
    ctx.print([t.bold("Doctor"), ...renderDoctor(checks, { pass: t.green, fail: t.red, none: t.dim })].join("\n"));
  },
};
