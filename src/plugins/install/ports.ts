/**
 * What the install logic needs from the rest of clew, as plain functions handed in: marketplace
 * catalogues, fetching a plugin source, reading a fetched plugin, and the `enabledPlugins` of
 * each settings scope. app/ wires the real ones; the logic here stays free of settings files,
 * git and the network, and is tested against real folders through the same seam.
 */
import type { InstallScope, MarketplaceEntry, MarketplaceFile, PluginSource } from "../types.ts";

export interface CatalogInfo {
  name: string;
  file: MarketplaceFile;
  /** The local copy of the marketplace (a clone, or the folder itself for a local one). */
  root: string;
  /** The marketplace copy's commit, when it is a git checkout. */
  commit?: string;
  /** How the marketplace was added (known_marketplaces.json `source`), for clew.lock. */
  source?: unknown;
}

export type CatalogRead = { ok: true; catalog: CatalogInfo } | { ok: false; error: string };

export interface FetchedPlugin {
  dir: string;
  commit?: string;
  /** The source pinned to what was fetched (a relative plugin of a git marketplace becomes git-subdir at its commit). */
  resolved: PluginSource;
  /** The folder the symlink rules treat as "the marketplace". */
  marketplaceRoot?: string;
  /** Removes a temporary checkout once the tree is in the cache. */
  cleanup?: () => void;
}

export type FetchResult = FetchedPlugin | { error: string };

/** A fetched plugin as far as installing needs it. */
export interface PluginDescription {
  version?: string;
  /** `dependencies` as written in the manifest (or the strict:false entry). */
  dependencies: unknown[];
}

export interface InstallPorts {
  pluginsDir: string;
  projectDir: string;
  now(): Date;
  marketplaceNames(): string[];
  catalog(name: string): Promise<CatalogRead>;
  fetch(entry: MarketplaceEntry, catalog: CatalogInfo): Promise<FetchResult>;
  describe(root: string, entry: MarketplaceEntry, catalog: CatalogInfo): PluginDescription;
  /** `enabledPlugins` of one scope's file (writable scopes only). */
  enabledAt(scope: InstallScope): Record<string, unknown>;
  /** The merged `enabledPlugins` (every layer, managed included). */
  enabledMerged(): Record<string, unknown>;
  /** Sets (`true`/`false`) or removes (`undefined`) one id at one scope; returns the file written. */
  setEnabled(scope: InstallScope, id: string, value: boolean | undefined): string;
}
