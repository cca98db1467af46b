/**
 * Whether each enabled plugin's cache folder is still the tree hashed at install, asked per plugin
 * and answered once. A warm start takes what the plugins contribute from an index written after
 * a verified load, so nothing of a plugin's files reaches the model or runs before its own check:
 * the hook engine, the MCP runtime and the extensions registry ask here before they run or read
 * anything of a plugin, and the remaining plugins are checked after the first request went out.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomicSync } from "../../util/atomic-write.ts";
import type { PluginProblem } from "../types.ts";
import type { StoredInstallRecord } from "./records.ts";
import { verifyInstallQuick, type CheckedRecord } from "./verify.ts";

export interface CheckedPlugin {
  id: string;
  record: CheckedRecord & Pick<StoredInstallRecord, "scope">;
}

/**
 * Listing stamps taken after install (a tree re-hashed and found unchanged), by install path. Kept
 * beside the session records rather than in `installed_plugins.json`, whose bytes key them.
 */
function stampsFile(pluginsDir: string): string {
  return join(pluginsDir, "index", "stamps.json");
}

function readStamps(pluginsDir: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(readFileSync(stampsFile(pluginsDir), "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Installed plugins checked between yields of the background pass (~0.1 ms each). */
const PASS_CHUNK = 25;

export function cacheMismatch(id: string, record: CheckedPlugin["record"], reason: string): PluginProblem {
  return {
    level: "error",
    code: "plugin-cache-mismatch",
    file: record.installPath,
    message: `Plugin ${id} was not loaded: ${reason}. Reinstall it with \`clew plugin install ${id}${record.scope === "user" ? "" : ` -s ${record.scope}`}\`.`,
  };
}

export class PluginIntegrity {
  private byRoot: Map<string, CheckedPlugin> | undefined;
  private readonly verdicts = new Map<string, PluginProblem | null>();
  /** Fresh listing stamps of trees that were re-hashed and found unchanged (a `touch`). */
  private readonly restamps = new Map<string, string>();
  private stamps?: Record<string, string>;
  /** Set by refuseEvery: why no plugin is admitted any more. */
  private refusal: string | undefined;

  constructor(
    private readonly pluginsDir: string,
    /** The installs, or where to read them the first time one is asked about (a warm start's stored record). */
    private readonly plugins: readonly CheckedPlugin[] | (() => readonly CheckedPlugin[]),
    /** Hears of each refusal once, when it is found. */
    private readonly onRefused?: (problem: PluginProblem) => void,
  ) {}

  private records(): Map<string, CheckedPlugin> {
    if (this.byRoot) return this.byRoot;
    const plugins = typeof this.plugins === "function" ? this.plugins() : this.plugins;
    this.byRoot = new Map(plugins.map((plugin) => [plugin.record.installPath, plugin]));
    return this.byRoot;
  }

  /** Undefined when the folder is the tree hashed at install (or is not an install); else why not. */
  problem(root: string): PluginProblem | undefined {
    // Reading the installs may refuse every plugin (refuseEvery), so the refusal is looked at after.
    const byRoot = this.records();
    if (this.refusal !== undefined) return this.refused(root, byRoot.get(root)?.id, this.refusal);
    const known = this.verdicts.get(root);
    if (known !== undefined) return known ?? undefined;
    const plugin = byRoot.get(root);
    if (!plugin) return undefined;
    let found: PluginProblem | null = null;
    try {
      this.stamps ??= readStamps(this.pluginsDir);
      const stamp = this.stamps[root] ?? plugin.record.listingStamp;
      const verdict = verifyInstallQuick(stamp === undefined ? plugin.record : { ...plugin.record, listingStamp: stamp });
      if (!verdict.ok) found = cacheMismatch(plugin.id, plugin.record, verdict.reason);
      else if (verdict.restamp !== undefined) this.restamps.set(root, verdict.restamp);
    } catch (error) {
      found = cacheMismatch(plugin.id, plugin.record, `it could not be checked (${error instanceof Error ? error.message : String(error)})`);
    }
    this.verdicts.set(root, found);
    if (found) this.onRefused?.(found);
    return found ?? undefined;
  }

  /**
   * Refuses every plugin from now on — those checked and admitted before too — whatever their
   * folders hold: `reason` says why what the session knows of them can no longer be used, and what
   * to do. For a session whose plugins all come from one stored record that turned out damaged
   * (which may be the part naming them). The caller tells the user once.
   */
  refuseEvery(reason: string): void {
    this.refusal ??= reason;
  }

  private refused(root: string, id: string | undefined, reason: string): PluginProblem {
    return { level: "error", code: "plugin-record-unreadable", file: root, message: `Plugin ${id ?? `at ${root}`} was not loaded: ${reason}` };
  }

  /** True when the plugin at `root` may be read and run. */
  admits(root: string): boolean {
    return this.problem(root) === undefined;
  }

  /** Checks every plugin not checked yet, yielding to the event loop between chunks. */
  async checkRest(): Promise<PluginProblem[]> {
    const found: PluginProblem[] = [];
    let inChunk = 0;
    for (const root of this.records().keys()) {
      if (this.verdicts.has(root)) continue;
      const problem = this.problem(root);
      if (problem) found.push(problem);
      if (++inChunk >= PASS_CHUNK) {
        inChunk = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    this.saveStamps();
    return found;
  }

  /** Stores fresh stamps (read again first: another session may have added some meanwhile). */
  saveStamps(): void {
    if (this.restamps.size === 0) return;
    try {
      const path = stampsFile(this.pluginsDir);
      const stamps = { ...readStamps(this.pluginsDir), ...Object.fromEntries(this.restamps) };
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomicSync(path, JSON.stringify(stamps));
      this.stamps = stamps;
      this.restamps.clear();
    } catch {
      // Not saved: the next start re-hashes those trees again, which costs time, not safety.
    }
  }
}
