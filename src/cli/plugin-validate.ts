/**
 * `clew plugin validate PATH [--json] [--strict]` (plugins.md §14): a marketplace or plugin folder,
 * offline. Human output lists each plugin with what it contributes and its findings, and ends with
 * `✔ Validation passed`, `✔ Validation passed with warnings`, or the errors. `--json` prints the
 * ValidationReport (documented in the README) for CI. Exit 1 when there are errors (with
 * `--strict`, warnings count as errors).
 */
import { resolve } from "node:path";
import type { PluginReport, ValidationIssue, ValidationReport } from "../app/plugin-validate.ts";
import type { PluginSubcommand } from "./plugin-command.ts";

const USAGE = "usage: clew plugin validate <path> [--json] [--strict]\n";

const MARK: Record<ValidationIssue["level"], string> = { error: "✘", warning: "!", note: "·" };

function issueLine(issue: ValidationIssue, indent: string): string {
  const where = issue.field === undefined ? issue.file : `${issue.file} (${issue.field})`;
  return `${indent}${MARK[issue.level]} ${issue.level} [${issue.code}] ${where}: ${issue.message}\n`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function summary(plugin: PluginReport): string {
  if (plugin.status === "invalid") return `invalid — ${plugin.invalidReason ?? "cannot load"}`;
  if (plugin.status === "remote") {
    const source = plugin.source as Record<string, unknown>;
    const where = [source.repo ?? source.url ?? source.package, source.path].filter((part) => typeof part === "string").join(":");
    const pin = typeof source.sha === "string" ? ` #${source.sha.slice(0, 7)}` : typeof source.ref === "string" ? ` @${source.ref}` : "";
    return `remote ${plugin.sourceKind} ${where}${pin}`;
  }
  const parts = [plural(plugin.skills.length, "skill"), plural(plugin.commands.length, "command"), plural(plugin.agents.length, "agent")];
  if (plugin.hookHandlers > 0) parts.push(plural(plugin.hookHandlers, "hook handler"));
  if (plugin.mcpServers.length > 0) parts.push(`MCP ${plugin.mcpServers.join(", ")}`);
  if (plugin.lspServers.length > 0) parts.push(`LSP ${plugin.lspServers.join(", ")}`);
  if (plugin.outputStyles.length > 0) parts.push(plural(plugin.outputStyles.length, "output style"));
  if (plugin.bin) parts.push("bin/");
  return `loaded — ${parts.join(", ")}`;
}

function pluginBlock(plugin: PluginReport): string {
  const at = plugin.index === undefined ? "" : `plugins[${plugin.index}] `;
  let text = `  ${at}${plugin.name}: ${summary(plugin)}\n`;
  for (const issue of plugin.issues) text += issueLine(issue, "    ");
  return text;
}

export function formatReport(report: ValidationReport): string {
  let text = "";
  const all: ValidationIssue[] = [...report.issues];
  if (report.marketplace) {
    const market = report.marketplace;
    const totals = market.totals;
    text += `Validating marketplace "${market.name}" (${report.path})\n`;
    for (const issue of market.issues) text += issueLine(issue, "  ");
    for (const plugin of market.plugins) text += pluginBlock(plugin);
    text += `${market.pluginCount} ${market.pluginCount === 1 ? "entry" : "entries"}: ${totals.loaded} loaded, ${totals.remote} remote, ${totals.invalid} invalid; ${plural(totals.skills, "skill")}, ${plural(totals.commands, "command")}, ${plural(totals.agents, "agent")}\n`;
    all.push(...market.issues, ...market.plugins.flatMap((plugin) => plugin.issues));
  } else if (report.plugin) {
    text += `Validating plugin "${report.plugin.name}" (${report.path})\n${pluginBlock(report.plugin)}`;
    all.push(...report.plugin.issues);
  } else {
    for (const issue of report.issues) text += issueLine(issue, "");
  }
  const failing = all.filter((issue) => issue.level === "error" || (report.strict && issue.level === "warning"));
  if (failing.length === 0) return `${text}${report.counts.warning > 0 ? "✔ Validation passed with warnings" : "✔ Validation passed"}\n`;
  text += `✘ Validation failed: ${plural(failing.length, "error")}${report.strict && report.counts.warning > 0 ? " (--strict: warnings count as errors)" : ""}\n`;
  for (const issue of failing) text += issueLine(issue, "  ");
  return text;
}

export const runPluginValidate: PluginSubcommand = async (args, env, io) => {
  let json = false;
  let strict = false;
  const paths: string[] = [];
  for (const arg of args) {
    if (arg === "--json") json = true;
    else if (arg === "--strict") strict = true;
    else if (arg === "--help" || arg === "-h") {
      io.writeOut(USAGE);
      return 0;
    } else if (arg.startsWith("-")) {
      io.writeErr(`error: unknown option '${arg}'.\n${USAGE}`);
      return 1;
    } else paths.push(arg);
  }
  const [path] = paths;
  if (path === undefined || paths.length > 1) {
    io.writeErr(`error: give exactly one plugin or marketplace folder.\n${USAGE}`);
    return 1;
  }
  const { validatePath } = await import("../app/plugin-validate.ts");
  const report = await validatePath(resolve(env.cwd, path), { strict });
  io.writeOut(json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.passed ? 0 : 1;
};
