/**
 * /plugin: the plugin manager inside a session, in the scrollback style of the rest of the UI.
 * Without arguments it asks what to do — discover and install (search by name or description,
 * then a scope), the installed plugins (enable, disable, uninstall), marketplaces (add, update,
 * remove), errors. With arguments it is the CLI's subcommands: `/plugin install x@mkt project`,
 * `/plugin marketplace add owner/repo`, `/plugin list`, … Changes apply to the next session
 * (`/clear` starts one), so the running conversation's cached prompt is never invalidated.
 */
import type { AvailablePlugin, ListedPlugin, PluginCommandContext } from "../../app/plugin-install.ts";
import type { SlashCommand, SlashContext } from "./types.ts";

type InstallScope = "user" | "project" | "local";
const SCOPES: readonly InstallScope[] = ["user", "project", "local"];
const ACTIVATE = "It takes effect in the next session: /clear starts one.";

const install = () => import("../../app/plugin-install.ts");
const markets = () => import("../../app/plugin-marketplaces.ts");

function contextOf(ctx: SlashContext): PluginCommandContext {
  return { env: ctx.env, projectDir: ctx.session.info.cwd };
}

function report(ctx: SlashContext, outcome: { ok: true; messages?: string[]; warnings?: string[] } | { ok: false; error: string }, done: string): void {
  if (!outcome.ok) {
    ctx.error(outcome.error);
    return;
  }
  for (const line of [...(outcome.messages ?? []), ...(outcome.warnings ?? [])]) ctx.print(`  ${line}`);
  ctx.print(`${done} ${ACTIVATE}`);
}

async function chooseScope(ctx: SlashContext, given: string | undefined): Promise<InstallScope | undefined> {
  if (given && (SCOPES as readonly string[]).includes(given)) return given as InstallScope;
  if (given) {
    ctx.error(`Unknown scope "${given}": use user, project or local.`);
    return undefined;
  }
  return ctx.choose("Install for", [
    { value: "user", label: "You, in every project (user)" },
    { value: "project", label: "Everyone on this project (project: .clew/settings.json, committed)" },
    { value: "local", label: "You, in this project only (local)" },
  ]);
}

async function installOne(ctx: SlashContext, spec: string, scopeArg: string | undefined): Promise<void> {
  const scope = await chooseScope(ctx, scopeArg);
  if (!scope) return;
  ctx.print(ctx.theme.dim(`Installing ${spec} (${scope})…`));
  const outcome = await (await install()).runInstall(contextOf(ctx), spec, scope);
  if (!outcome.ok) return ctx.error(outcome.error);
  for (const item of outcome.items) ctx.print(`  ${ctx.theme.green("✔")} ${item.id} ${ctx.theme.dim(`${item.version}${item.commit ? ` · ${item.commit.slice(0, 12)}` : ""} · ${item.scope}`)}`);
  report(ctx, { ok: true, warnings: outcome.warnings }, `Installed ${spec}.`);
}

function matches(plugin: AvailablePlugin, query: string): boolean {
  const text = `${plugin.name} ${plugin.description ?? ""} ${plugin.marketplaceName}`.toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

async function discover(ctx: SlashContext, query: string): Promise<void> {
  const listing = await (await install()).listPlugins(contextOf(ctx), { available: true });
  const found = (listing.available ?? []).filter((plugin) => !plugin.installed && matches(plugin, query));
  if (found.length === 0) {
    ctx.print(query ? `No plugin not yet installed matches "${query}".` : "No plugins to install: add a marketplace first (/plugin marketplace add <owner/repo>).");
    return;
  }
  const shown = found.slice(0, 30);
  const picked = await ctx.choose(
    query ? `Plugins matching "${query}"${found.length > shown.length ? ` (first ${shown.length} of ${found.length}; narrow the search with /plugin search <words>)` : ""}` : "Install which plugin?",
    shown.map((plugin) => ({ value: plugin.pluginId, label: `${plugin.pluginId}${plugin.description ? ` — ${plugin.description.slice(0, 80)}` : ""}` })),
  );
  if (picked) await installOne(ctx, picked, undefined);
}

function installedLine(ctx: SlashContext, plugin: ListedPlugin): string {
  const state = plugin.errors.length > 0 ? ctx.theme.red("error") : plugin.enabled ? ctx.theme.green("enabled") : ctx.theme.dim("disabled");
  return `${plugin.id} ${ctx.theme.dim(`${plugin.version} · ${plugin.scope}`)} ${state}`;
}

async function manageInstalled(ctx: SlashContext): Promise<void> {
  const listing = await (await install()).listPlugins(contextOf(ctx), {});
  if (listing.installed.length === 0) return ctx.print("No plugins are installed. /plugin search <words> finds some.");
  // Problems first, then by name: what needs attention is at the top.
  const sorted = [...listing.installed].sort((a, b) => Number(b.errors.length > 0) - Number(a.errors.length > 0) || a.id.localeCompare(b.id));
  const picked = await ctx.choose("Installed plugins", sorted.map((plugin, index) => ({ value: String(index), label: installedLine(ctx, plugin) })));
  const plugin = picked === undefined ? undefined : sorted[Number(picked)];
  if (!plugin) return;
  for (const error of plugin.errors) ctx.error(error);
  const action = await ctx.choose(`${plugin.id}`, [
    plugin.enabled ? { value: "disable", label: "Disable" } : { value: "enable", label: "Enable" },
    { value: "uninstall", label: "Uninstall" },
    { value: "details", label: "Details (components and their prompt cost)" },
  ]);
  if (action) await runAction(ctx, action, plugin.id, plugin.scope);
}

async function runAction(ctx: SlashContext, action: string, spec: string, scope: InstallScope | undefined): Promise<void> {
  const api = await install();
  const context = contextOf(ctx);
  if (action === "enable") return report(ctx, await api.runEnable(context, spec, scope), `Enabled ${spec}.`);
  if (action === "disable") return report(ctx, await api.runDisable(context, spec, scope ? { scope } : {}), `Disabled ${spec}.`);
  if (action === "uninstall") return report(ctx, await api.runUninstall(context, spec, scope ? { scope } : {}), `Uninstalled ${spec}.`);
  if (action === "details") {
    try {
      ctx.print(JSON.stringify(await api.pluginDetails(ctx.env, context.projectDir, spec), null, 2));
    } catch (error) {
      ctx.error(error instanceof Error ? error.message : String(error));
    }
  }
}

async function marketplaces(ctx: SlashContext, words: string[]): Promise<void> {
  const api = await markets();
  const [verb, ...rest] = words;
  if (verb === "add" && rest[0]) {
    const added = await api.addMarketplaceFrom(ctx.env, rest.join(" "));
    if (!added.ok) return ctx.error(added.error);
    for (const note of added.notes) ctx.print(`  ${note}`);
    return ctx.print(`Added marketplace ${added.value.name} (${added.value.pluginCount} plugins). /plugin search finds them.`);
  }
  if ((verb === "remove" || verb === "rm") && rest[0]) {
    const removed = await api.removeKnownMarketplace(ctx.env, rest[0]);
    return removed.ok ? ctx.print(`Removed marketplace ${rest[0]}.`) : ctx.error(removed.error);
  }
  if (verb === "update") {
    const updated = await api.updateKnownMarketplaces(ctx.env, rest[0]);
    return ctx.print(JSON.stringify(updated, null, 2));
  }
  const listed = await api.listKnownMarketplaces(ctx.env);
  if (!listed.ok) return ctx.error(listed.error);
  if (listed.value.length === 0) return ctx.print("No marketplaces. Add one: /plugin marketplace add <owner/repo | git URL | folder>");
  ctx.print([ctx.theme.bold("Marketplaces"), ...listed.value.map((market) => `  ${market.name} ${ctx.theme.dim(`${market.repo ?? market.url ?? market.path ?? market.source}${market.ref ? `#${market.ref}` : ""} · updated ${market.lastUpdated}`)}`)].join("\n"));
}

async function errors(ctx: SlashContext): Promise<void> {
  const listing = await (await install()).listPlugins(contextOf(ctx), {});
  const lines = [...listing.problems, ...listing.installed.flatMap((plugin) => plugin.errors.map((error) => `${plugin.id}: ${error}`))];
  ctx.print(lines.length === 0 ? "No plugin errors." : [ctx.theme.bold("Plugin errors"), ...lines.map((line) => `  ${line}`)].join("\n"));
}

async function menu(ctx: SlashContext): Promise<void> {
  const choice = await ctx.choose("Plugins", [
    { value: "discover", label: "Discover and install" },
    { value: "installed", label: "Installed plugins" },
    { value: "marketplaces", label: "Marketplaces" },
    { value: "errors", label: "Errors" },
  ]);
  if (choice === "discover") await discover(ctx, "");
  if (choice === "installed") await manageInstalled(ctx);
  if (choice === "marketplaces") await marketplaces(ctx, []);
  if (choice === "errors") await errors(ctx);
}

export const pluginCommand: SlashCommand = {
  name: "plugin",
  aliases: ["plugins"],
  usage: "[search <words> | install <plugin> [scope] | enable|disable|uninstall <plugin> | list | errors | marketplace add|list|update|remove …]",
  summary: "Find, install and manage plugins and marketplaces",
  async run(args, ctx) {
    const words = args.trim().split(/\s+/).filter(Boolean);
    const [verb, ...rest] = words;
    if (verb === undefined) return ctx.interactive ? menu(ctx) : errors(ctx);
    if (verb === "search" || verb === "discover") return discover(ctx, rest.join(" "));
    if ((verb === "install" || verb === "i") && rest[0]) return installOne(ctx, rest[0], rest[1]);
    if ((verb === "enable" || verb === "disable" || verb === "uninstall") && rest[0]) return runAction(ctx, verb, rest[0], rest[1] as InstallScope | undefined);
    if (verb === "list" || verb === "installed") {
      const listing = await (await install()).listPlugins(contextOf(ctx), {});
      return ctx.print(listing.installed.length === 0 ? "No plugins are installed." : [ctx.theme.bold("Installed plugins"), ...listing.installed.map((plugin) => `  ${installedLine(ctx, plugin)}`)].join("\n"));
    }
    if (verb === "errors") return errors(ctx);
    if (verb === "marketplace" || verb === "market") return marketplaces(ctx, rest);
    ctx.error(`Unknown /plugin command "${args.trim()}". ${pluginCommand.usage}`);
  },
};
