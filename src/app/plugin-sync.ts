/**
 * `clew plugin sync [--frozen]` and `clew plugin outdated`. Sync installs what the project's
 * merged settings ask for (`extraKnownMarketplaces` added when unknown, `enabledPlugins`
 * installed at project scope) and writes clew.lock. Frozen installs exactly the lock — each
 * plugin fetched at its locked commit, its tree hashed — and fails on any drift, naming the
 * plugin and what changed; it never rewrites the lock.
 */
import { readInstalled, recordsFor } from "../plugins/install/records.ts";
import { installPlugin, splitPluginId } from "../plugins/install/installer.ts";
import type { InstallPorts } from "../plugins/install/ports.ts";
import { uninstallPlugin } from "../plugins/install/state-ops.ts";
import { readLock, writeLock, type Lock } from "../plugins/lock/lock-file.ts";
import { checkOutdated, type OutdatedRow } from "../plugins/lock/outdated.ts";
import { lockedCommitOnBranch } from "../plugins/lock/reachability.ts";
import { cloneUrlOf } from "../plugins/marketplaces/sources.ts";
import { addMarketplace, gitContext } from "../plugins/marketplaces/manager.ts";
import type { MarketplaceSource } from "../plugins/marketplaces/sources.ts";
import { loadSettings } from "../settings/load.ts";
import { installPorts, marketplaceContext } from "./plugin-ports.ts";
import type { PluginCommandContext } from "./plugin-install.ts";

export interface SyncOutcome {
  ok: boolean;
  /** What was done, one line each. */
  lines: string[];
  /** Drift (frozen) or failures, one line each naming the plugin. */
  errors: string[];
  lockFile?: string;
}

function wanted(context: PluginCommandContext): { enabled: string[]; marketplaces: Record<string, unknown> } {
  const { env, projectDir } = context;
  // Running `clew plugin sync` in the folder is the consent the trust dialog asks for: the
  // project's extraKnownMarketplaces count (marketplaces.md §8.1), and every one is named in the output.
  const loaded = loadSettings({ startDir: projectDir, configDir: env.configDir, managedDirs: env.managedSettingsDirs, homeDir: env.homeDir, keepDenyOnError: true, trusted: true });
  const enabled = Object.entries(loaded.settings.enabledPlugins).filter(([, on]) => on === true).map(([id]) => id).sort();
  return { enabled, marketplaces: { ...loaded.settings.extraKnownMarketplaces } };
}

/** Ports that install at project scope without touching settings: the settings already ask for it. */
function quiet(ports: InstallPorts): InstallPorts {
  return { ...ports, setEnabled: () => "" };
}

async function ensureMarketplace(context: PluginCommandContext, name: string, source: unknown, lines: string[], errors: string[]): Promise<void> {
  const ports = await installPorts(context);
  if (ports.known[name]) return;
  const added = await addMarketplace(source as MarketplaceSource, marketplaceContext(context));
  if (added.ok) lines.push(`Added marketplace ${added.value.name}`);
  else errors.push(`marketplace ${name}: ${added.error}`);
}

export async function runSync(context: PluginCommandContext): Promise<SyncOutcome> {
  const lines: string[] = [];
  const errors: string[] = [];
  const want = wanted(context);
  for (const [name, declared] of Object.entries(want.marketplaces)) {
    const source = typeof declared === "object" && declared !== null ? (declared as { source?: unknown }).source : undefined;
    if (source !== undefined) await ensureMarketplace(context, name, source, lines, errors);
  }
  const lock: Lock = { lockfileVersion: 1, marketplaces: {}, plugins: {} };
  for (const id of want.enabled) {
    const ports = await installPorts(context);
    let record = recordsFor(readInstalled(ports.pluginsDir).data, id, context.projectDir)[0];
    if (!record) {
      const outcome = await installPlugin(quiet(ports), id, "project");
      if (!outcome.ok) {
        errors.push(`${id}: ${outcome.error}`);
        continue;
      }
      lines.push(...outcome.items.map((item) => `Installed ${item.id} ${item.version}`));
      record = recordsFor(readInstalled(ports.pluginsDir).data, id, context.projectDir)[0];
    }
    if (!record) continue;
    const marketplace = record.marketplace;
    const catalog = await ports.catalog(marketplace);
    if (catalog.ok) lock.marketplaces[marketplace] = { source: catalog.catalog.source ?? null, ...(catalog.catalog.commit ? { commit: catalog.catalog.commit } : {}) };
    lock.plugins[id] = {
      name: splitPluginId(id).name, marketplace, source: record.source, resolved: record.resolvedSource ?? record.source,
      ...(record.gitCommitSha ? { commit: record.gitCommitSha } : {}), version: record.version, contentHash: record.contentHash,
    };
  }
  if (errors.length > 0) return { ok: false, lines, errors };
  const lockFile = writeLock(context.projectDir, lock);
  lines.push(`Wrote ${lockFile} (${Object.keys(lock.plugins).length} plugin${Object.keys(lock.plugins).length === 1 ? "" : "s"})`);
  return { ok: true, lines, errors, lockFile };
}

export async function runFrozenSync(context: PluginCommandContext): Promise<SyncOutcome> {
  const lines: string[] = [];
  const errors: string[] = [];
  const read = readLock(context.projectDir);
  if (read.kind === "missing") return { ok: false, lines, errors: [`there is no clew.lock in ${context.projectDir}; run \`clew plugin sync\` and commit it`] };
  if (read.kind === "invalid") return { ok: false, lines, errors: [read.message] };
  const { lock } = read;
  const want = wanted(context);
  for (const id of want.enabled) if (!lock.plugins[id]) errors.push(`${id}: enabled in the project's settings but missing from clew.lock; run \`clew plugin sync\` and commit the lock`);
  for (const id of Object.keys(lock.plugins)) if (!want.enabled.includes(id)) errors.push(`${id}: in clew.lock but no longer enabled by the project's settings; run \`clew plugin sync\` and commit the lock`);
  for (const [name, locked] of Object.entries(lock.marketplaces)) await ensureMarketplace(context, name, locked.source, lines, errors);
  const rewritten = new Map<string, string>();
  for (const [name, locked] of Object.entries(lock.marketplaces)) {
    const source = locked.source as MarketplaceSource | null;
    const url = source ? cloneUrlOf(source) : undefined;
    if (!url || !locked.commit || !source) continue;
    const ref = "ref" in source ? source.ref : undefined;
    const check = await lockedCommitOnBranch(url, ref, locked.commit, gitContext(marketplaceContext(context)));
    if (check.kind === "rewritten") rewritten.set(name, `commit moved — clew.lock has ${locked.commit.slice(0, 12)} of marketplace ${name}, which is no longer on ${ref ?? "the default branch"} of ${url} (now at ${check.head.slice(0, 12)}): the branch was rewritten (force-pushed). Review the change, then run \`clew plugin sync\` to lock it`);
    else if (check.kind === "unreachable") rewritten.set(name, `its marketplace ${name} cannot be checked: ${check.reason}`);
  }
  for (const [id, locked] of Object.entries(lock.plugins)) {
    const moved = rewritten.get(locked.marketplace);
    if (moved !== undefined) {
      errors.push(`${id}: ${moved}`);
      continue;
    }
    const ports = await installPorts(context);
    const pinned: InstallPorts = {
      ...quiet(ports),
      // Fetch what the lock names, at its commit — not whatever the catalogue says today.
      fetch: async (entry, catalog) => {
        const fetched = await ports.fetch({ ...entry, source: locked.resolved }, catalog);
        if ("error" in fetched) return fetched;
        return { ...fetched, resolved: locked.resolved };
      },
    };
    const outcome = await installPlugin(pinned, id, "project");
    if (!outcome.ok) {
      const at = locked.commit ? ` at locked commit ${locked.commit.slice(0, 12)}` : "";
      errors.push(`${id}: cannot be fetched${at} (${outcome.error}). If the upstream branch was rewritten (force-pushed), the locked commit is gone: run \`clew plugin sync\` to lock the current one and review the change.`);
      continue;
    }
    const item = outcome.items.find((candidate) => candidate.id === id);
    if (item && item.contentHash !== locked.contentHash) {
      errors.push(`${id}: content hash differs — clew.lock has ${locked.contentHash.slice(0, 12)}, the tree fetched at commit ${(item.commit ?? "?").slice(0, 12)} hashes to ${item.contentHash.slice(0, 12)}`);
      uninstallPlugin(quiet(ports), id, { scope: "project", keepData: true });
      continue;
    }
    if (item && locked.commit && item.commit && item.commit !== locked.commit) {
      errors.push(`${id}: commit moved — clew.lock has ${locked.commit.slice(0, 12)}, fetched ${item.commit.slice(0, 12)}`);
      continue;
    }
    lines.push(`✔ ${id} ${locked.version} (${locked.contentHash.slice(0, 12)}) matches clew.lock`);
  }
  return { ok: errors.length === 0, lines, errors };
}

export async function runOutdated(context: PluginCommandContext): Promise<OutdatedRow[]> {
  const ports = await installPorts(context);
  const { data } = readInstalled(ports.pluginsDir);
  const inputs = Object.keys(data.plugins).sort().flatMap((id) => {
    const record = recordsFor(data, id, context.projectDir)[0];
    if (!record) return [];
    const resolved = record.resolvedSource ?? record.source;
    const marketplaceRef = (ports.known[record.marketplace]?.source as { ref?: string } | undefined)?.ref;
    const ref = resolved.kind === "github" || resolved.kind === "url" || resolved.kind === "git-subdir" ? ((record.source as { ref?: string }).ref ?? marketplaceRef) : undefined;
    return [{ id, ...(record.gitCommitSha ? { commit: record.gitCommitSha } : {}), resolved, ...(ref ? { ref } : {}) }];
  });
  return checkOutdated(inputs, gitContext(marketplaceContext(context)));
}
