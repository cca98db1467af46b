/** /doctor: checks of the installation and setup, each with what to do when it fails. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatProblem } from "../../settings/problems.ts";
import type { SlashCommand, SlashContext } from "./types.ts";

type Check = { ok: boolean | "n/a"; label: string; detail: string };

function configWritable(dir: string): Check {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = join(dir, `.doctor-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
    return { ok: true, label: "Config directory", detail: `${dir} is writable` };
  } catch (error) {
    return { ok: false, label: "Config directory", detail: `${dir} is not writable (${error instanceof Error ? error.message : String(error)}); set CLEW_CONFIG_DIR` };
  }
}

function checks(ctx: SlashContext): Check[] {
  const { env, session } = ctx;
  const problems = session.settings.problems;
  const credentials = env.apiKey ? "ANTHROPIC_API_KEY is set" : env.authToken ? "ANTHROPIC_AUTH_TOKEN is set" : "";
  const rg = Bun.which("rg");
  return [
    { ok: true, label: "clew", detail: `version ${session.info.version}` },
    configWritable(env.configDir),
    {
      ok: problems.length === 0,
      label: "Settings",
      detail: problems.length === 0 ? `${session.settings.files.length} settings locations checked, no problems` : `${problems.length} problem(s):`,
    },
    { ok: credentials !== "", label: "API credentials", detail: credentials || "none: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN" },
    { ok: true, label: "Base URL", detail: env.baseURL ?? "https://api.anthropic.com (default)" },
    { ok: rg !== null, label: "ripgrep", detail: rg ?? "not found: Grep and Glob use the slower built-in search (install ripgrep)" },
    { ok: "n/a", label: "tmux", detail: "not needed (clew's UI is line-oriented)" },
  ];
}

export const doctorCommand: SlashCommand = {
  name: "doctor",
  summary: "Check the installation, settings and credentials",
  async run(_args, ctx) {
    const t = ctx.theme;
    const lines = [t.bold("Doctor")];
    for (const check of checks(ctx)) {
      const mark = check.ok === "n/a" ? t.dim("–") : check.ok ? t.green("✓") : t.red("✗");
      lines.push(`  ${mark} ${check.label}: ${check.detail}`);
      if (check.label === "Settings") for (const problem of ctx.session.settings.problems) lines.push(`      ${formatProblem(problem, ctx.env.homeDir)}`);
    }
    lines.push(`  ${t.dim("–")} Hooks:`, ...(await ctx.session.hookListing(ctx.env.homeDir)).map((line) => `      ${line}`));
    lines.push(`  ${t.dim("–")} Skills and commands:`, ...(await ctx.session.extensionListing(ctx.env.homeDir)).map((line) => `      ${line}`));
    ctx.print(lines.join("\n"));
  },
};
