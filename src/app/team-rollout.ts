/**
 * Team rollout (marketplaces.md §8.1): a project's settings name marketplaces
 * (`extraKnownMarketplaces`) and plugins (`enabledPlugins`) its people should have. In a trusted
 * folder the first interactive run fetches what is missing — cloning runs nothing — and shows one
 * consent screen: each marketplace with its source and commit, each plugin with its commit and
 * what it can run (hooks, MCP servers, `bin/` on PATH). Only a yes installs, through the same path
 * as `clew plugin sync` (which also writes clew.lock). Headless runs name what is missing and the
 * command that installs it. A declined plan is not asked about again until it changes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { writeFileAtomicSync } from "../util/atomic-write.ts";
import { enabledIds, notInstalledFromSnapshot } from "./plugins-setup.ts";
import { pluginRuns } from "./plugin-capabilities.ts";

export interface RolloutPlan {
  marketplaces: Array<{ name: string; source: unknown }>;
  plugins: string[];
}

export interface RolloutItem {
  kind: "marketplace" | "plugin";
  id: string;
  detail: string;
  commit?: string;
  /** What the plugin can run: hook events, MCP servers, bin/. */
  runs: string[];
  error?: string;
}

function declinedFile(configDir: string): string {
  return join(configDir, "rollout-declined.json");
}

function planKey(projectDir: string, plan: RolloutPlan): string {
  return Bun.hash(JSON.stringify([projectDir, plan.marketplaces.map((market) => [market.name, market.source]), plan.plugins])).toString(36);
}

function declined(configDir: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(readFileSync(declinedFile(configDir), "utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** What the project's settings ask for that is not here yet (fast: two state files and the settings already read). */
export async function missingForProject(env: Environment, loaded: LoadedSettings): Promise<RolloutPlan> {
  const wantedPlugins = enabledIds(loaded);
  const wantedMarkets = Object.entries(loaded.settings.extraKnownMarketplaces);
  if (wantedPlugins.length === 0 && wantedMarkets.length === 0) return { marketplaces: [], plugins: [] };
  let known: Record<string, unknown> = {};
  if (wantedMarkets.length > 0) {
    const { readKnownMarketplaces } = await import("../plugins/marketplaces/state.ts");
    try {
      known = (await readKnownMarketplaces(env.pluginsDir)).marketplaces;
    } catch {
      // Unreadable state: everything counts as missing, and sync reports the file.
    }
  }
  return {
    marketplaces: wantedMarkets.filter(([name]) => known[name] === undefined).map(([name, declared]) => ({ name, source: declared.source })),
    plugins: notInstalledFromSnapshot(env, loaded) ?? (await notInstalled(env, wantedPlugins)),
  };
}

/** Wanted plugin ids with no install record that applies here (ids match case-insensitively). */
async function notInstalled(env: Environment, wanted: readonly string[]): Promise<string[]> {
  const { readInstalled, recordsFor } = await import("../plugins/install/records.ts");
  const installed = readInstalled(env.pluginsDir).data;
  const here = new Set(Object.keys(installed.plugins).filter((id) => recordsFor(installed, id, env.cwd).length > 0).map((id) => id.toLowerCase()));
  return wanted.filter((id) => !here.has(id.toLowerCase()));
}

export function wasDeclined(env: Environment, plan: RolloutPlan): boolean {
  return declined(env.configDir)[env.cwd] === planKey(env.cwd, plan);
}

export function rememberDeclined(env: Environment, plan: RolloutPlan): void {
  try {
    writeFileAtomicSync(declinedFile(env.configDir), JSON.stringify({ ...declined(env.configDir), [env.cwd]: planKey(env.cwd, plan) }, null, 2));
  } catch {
    // Not remembered: the question comes back next time, which loses nothing.
  }
}

/** The one headless line: what is missing and the command that installs it. */
export function missingNotice(plan: RolloutPlan): string | undefined {
  const parts = [
    ...(plan.marketplaces.length > 0 ? [`marketplaces ${plan.marketplaces.map((market) => market.name).join(", ")}`] : []),
    ...(plan.plugins.length > 0 ? [`plugins ${plan.plugins.join(", ")}`] : []),
  ];
  return parts.length === 0 ? undefined : `this project asks for ${parts.join(" and ")}, which are not installed; run \`clew plugin sync\` here to install them (and write clew.lock)`;
}

/**
 * Fetches what the plan names — marketplaces cloned, plugin sources fetched into the cache, none of
 * it run — and describes each item for the consent screen.
 */
export async function describeRollout(env: Environment, plan: RolloutPlan): Promise<RolloutItem[]> {
  const [{ marketplaceContextOf }, { installPorts }, { loadPlugin }, { fetchPluginSource }, { splitPluginId }, { addMarketplace }] = await Promise.all([
    import("./plugin-marketplaces.ts"),
    import("./plugin-ports.ts"),
    import("../plugins/load.ts"),
    import("../plugins/marketplaces/fetch-source.ts"),
    import("../plugins/install/installer.ts"),
    import("../plugins/marketplaces/manager.ts"),
  ]);
  const items: RolloutItem[] = [];
  for (const market of plan.marketplaces) {
    const added = await addMarketplace(market.source as Parameters<typeof addMarketplace>[0], marketplaceContextOf(env));
    items.push({ kind: "marketplace", id: market.name, detail: JSON.stringify(market.source), runs: [], ...(added.ok ? {} : { error: added.error }), ...(added.ok && added.value.record.commit ? { commit: added.value.record.commit } : {}) });
  }
  const ports = await installPorts({ env, projectDir: env.cwd });
  for (const item of items) {
    if (item.commit || item.error) continue;
    const catalog = await ports.catalog(item.id);
    if (catalog.ok && catalog.catalog.commit) item.commit = catalog.catalog.commit;
  }
  for (const id of plan.plugins) {
    const { name, marketplace } = splitPluginId(id);
    if (marketplace === undefined) {
      items.push({ kind: "plugin", id, detail: "", runs: [], error: `"${id}" names no marketplace (enabledPlugins keys are name@marketplace)` });
      continue;
    }
    const catalog = await ports.catalog(marketplace);
    if (!catalog.ok) {
      items.push({ kind: "plugin", id, detail: "", runs: [], error: catalog.error });
      continue;
    }
    const entry = catalog.catalog.file.entries.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (!entry) {
      items.push({ kind: "plugin", id, detail: "", runs: [], error: `marketplace ${marketplace} has no plugin named ${name}` });
      continue;
    }
    const fetched = await fetchPluginSource(entry.source, { marketplaceRoot: catalog.catalog.file.root, pluginsDir: env.pluginsDir, env: env.childEnv, ...(env.githubToken ? { githubToken: env.githubToken } : {}) });
    if ("error" in fetched) {
      items.push({ kind: "plugin", id, detail: "", runs: [], error: fetched.error });
      continue;
    }
    const plugin = loadPlugin({ root: fetched.dir, name: entry.name, marketplace, entry, marketplaceRoot: catalog.catalog.file.root });
    const commit = fetched.commit ?? catalog.catalog.commit;
    items.push({ kind: "plugin", id, detail: plugin.description ?? entry.description ?? "", runs: pluginRuns(plugin), ...(commit ? { commit } : {}) });
  }
  return items;
}

/** Installs the plan (the `clew plugin sync` path: project scope, clew.lock written). */
export async function applyRollout(env: Environment): Promise<{ ok: boolean; lines: string[]; errors: string[] }> {
  const { runSync } = await import("./plugin-sync.ts");
  const outcome = await runSync({ env, projectDir: env.cwd });
  return { ok: outcome.ok, lines: outcome.lines, errors: outcome.errors };
}

/** Asks the user to install a project's plugins; absent headless. */
export type RolloutConsentPort = (items: readonly RolloutItem[]) => Promise<boolean>;

/**
 * At session start: headless (or an untrusted folder) names what is missing in one line;
 * interactive in a trusted folder fetches, asks once, and installs on a yes.
 */
export async function rolloutAtStart(env: Environment, loaded: LoadedSettings, consent: RolloutConsentPort | undefined, report: (line: string) => void): Promise<void> {
  const plan = await missingForProject(env, loaded);
  const notice = missingNotice(plan);
  if (!notice) return;
  if (!consent || !loaded.trusted || wasDeclined(env, plan)) {
    report(`clew: ${notice}`);
    return;
  }
  const items = await describeRollout(env, plan);
  if (!(await consent(items))) {
    rememberDeclined(env, plan);
    report(`clew: ${notice}`);
    return;
  }
  const applied = await applyRollout(env);
  for (const line of applied.lines) report(`clew: ${line}`);
  for (const line of applied.errors) report(`clew: ${line}`);
}
