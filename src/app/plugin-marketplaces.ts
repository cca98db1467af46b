/**
 * The marketplaces layer as the CLI and the session use it: every operation takes the resolved
 * Environment (paths, the user's environment for git, the GitHub token) instead of the pieces.
 */
import type { MarketplaceContext } from "../plugins/marketplaces/manager.ts";
import type { Environment } from "../settings/paths.ts";

export type { AddedMarketplace, ListedMarketplace, Outcome, RemovedMarketplace } from "../plugins/marketplaces/manager.ts";
export type { UpdateResult } from "../plugins/marketplaces/update.ts";

export function marketplaceContextOf(env: Environment, options: { nonInteractive?: boolean; now?: () => Date } = {}): MarketplaceContext {
  return {
    pluginsDir: env.pluginsDir,
    cwd: env.cwd,
    homeDir: env.homeDir,
    env: env.childEnv,
    ...(env.githubToken !== undefined ? { githubToken: env.githubToken } : {}),
    ...(options.nonInteractive ? { nonInteractive: true } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
}

export async function addMarketplaceFrom(env: Environment, input: string) {
  const { addMarketplace } = await import("../plugins/marketplaces/manager.ts");
  return addMarketplace(input, marketplaceContextOf(env));
}

export async function listKnownMarketplaces(env: Environment) {
  const { listMarketplaces } = await import("../plugins/marketplaces/manager.ts");
  return listMarketplaces(marketplaceContextOf(env));
}

export async function updateKnownMarketplaces(env: Environment, name?: string) {
  const { updateMarketplace } = await import("../plugins/marketplaces/update.ts");
  return updateMarketplace(name, marketplaceContextOf(env));
}

/**
 * Removes a marketplace and, first, uninstalls its plugins here (marketplaces.md §6.2): the user's
 * installs and this project's, each with its settings entry and cache. The notes name each one.
 */
export async function removeKnownMarketplace(env: Environment, name: string) {
  const [{ removeMarketplace }, { readInstalled, recordsFor }, { runUninstall }] = await Promise.all([
    import("../plugins/marketplaces/manager.ts"),
    import("../plugins/install/records.ts"),
    import("./plugin-install.ts"),
  ]);
  const uninstalled: string[] = [];
  const { data } = readInstalled(env.pluginsDir);
  for (const id of Object.keys(data.plugins).filter((key) => key.toLowerCase().endsWith(`@${name.toLowerCase()}`))) {
    for (const record of recordsFor(data, id, env.cwd)) {
      const outcome = await runUninstall({ env, projectDir: env.cwd }, id, { scope: record.scope });
      uninstalled.push(outcome.ok ? `Uninstalled ${id} (${record.scope})` : `Could not uninstall ${id} (${record.scope}): ${outcome.error}`);
    }
  }
  const removed = await removeMarketplace(name, marketplaceContextOf(env));
  return removed.ok ? { ...removed, notes: [...uninstalled, ...removed.notes] } : removed;
}

/**
 * For the session, after the first prompt is sent: refreshes the marketplaces due for
 * auto-update in the background. Never rejects; the results say what changed or failed.
 */
export async function updateMarketplacesInBackground(env: Environment, signal?: AbortSignal) {
  const { updateInBackground } = await import("../plugins/marketplaces/auto-update.ts");
  return updateInBackground(marketplaceContextOf(env, { nonInteractive: true }), env.pluginAutoUpdate, signal);
}
