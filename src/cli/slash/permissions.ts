/**
 * /permissions: the allow/ask/deny rules in force with the file each came from, the grants of
 * this session and the mode; `/permissions allow <rule>` saves a rule to .clew/settings.local.json,
 * `/permissions mode <mode>` switches the mode.
 */
import { relative } from "node:path";
import { PERMISSION_MODES, type PermissionMode } from "../../permissions/types.ts";
import type { SlashCommand, SlashContext } from "./types.ts";

function sourceOf(file: string | undefined, scope: string, cwd: string): string {
  if (!file) return scope === "cli" ? "command line" : scope;
  const rel = relative(cwd, file);
  return rel.startsWith("..") ? file : rel;
}

function listing(ctx: SlashContext): string {
  const t = ctx.theme;
  const { cwd } = ctx.session.info;
  const lines = [`${t.bold("Permission mode")}: ${ctx.session.permissionMode} ${t.dim("(Shift+Tab or /permissions mode <mode>)")}`];
  for (const kind of ["allow", "ask", "deny"] as const) {
    const rules = ctx.session.settings.rules.filter((rule) => rule.kind === kind);
    lines.push(t.bold(kind === "allow" ? "Allow" : kind === "ask" ? "Ask" : "Deny"));
    if (rules.length === 0) lines.push(t.dim("  (none)"));
    const width = Math.max(0, ...rules.map((rule) => rule.text.length));
    for (const rule of rules) lines.push(`  ${rule.text.padEnd(width)}  ${t.dim(sourceOf(rule.source.file, rule.source.scope, cwd))}`);
  }
  const grants = ctx.session.sessionGrants();
  lines.push(t.bold("Granted in this session"));
  lines.push(...(grants.length > 0 ? grants.map((rule) => `  ${rule}`) : [t.dim("  (none)")]));
  lines.push(t.dim("/permissions allow <rule> saves an allow rule to .clew/settings.local.json"));
  return lines.join("\n");
}

export const permissionsCommand: SlashCommand = {
  name: "permissions",
  aliases: ["allowed-tools"],
  usage: "[allow <rule> | mode <mode>]",
  summary: "View permission rules; add an allow rule; switch the mode",
  run(args, ctx) {
    const [verb = "", ...rest] = args.trim().split(/\s+/);
    const value = rest.join(" ").trim();
    if (verb === "") {
      ctx.print(listing(ctx));
      return;
    }
    if (verb === "allow") {
      if (value === "") return ctx.error("Usage: /permissions allow <rule>, e.g. /permissions allow Bash(npm test *)");
      try {
        const saved = ctx.session.allowRule(value, true);
        ctx.print(`Allowed ${value}${saved.file ? ` ${ctx.theme.dim(`(saved to ${relative(ctx.session.info.cwd, saved.file)})`)}` : ""}`);
      } catch (error) {
        ctx.error(error instanceof Error ? error.message : String(error));
      }
      return;
    }
    if (verb === "mode") {
      const mode = value as PermissionMode;
      if (!PERMISSION_MODES.includes(mode)) return ctx.error(`Unknown mode '${value}'. Modes: ${PERMISSION_MODES.join(", ")}.`);
      if (mode === "bypassPermissions" && ctx.startMode !== "bypassPermissions") {
        return ctx.error("bypassPermissions is only available when clew starts in it (--dangerously-skip-permissions).");
      }
      ctx.setMode(mode);
      return;
    }
    ctx.error(`Unknown /permissions action '${verb}'. Use /permissions, /permissions allow <rule> or /permissions mode <mode>.`);
  },
};
