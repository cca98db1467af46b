/**
 * `clew plugin outdated`: each installed plugin's commit against its remote's current head, asked
 * with `git ls-remote`. A remote that cannot be reached is said to be unreachable, per plugin —
 * never reported as up to date.
 */
import { tmpdir } from "node:os";
import { gitIn, type GitContext } from "../git/clone.ts";
import { describeGitError } from "../git/remote.ts";
import type { PluginSource } from "../types.ts";

export type OutdatedStatus = "up-to-date" | "outdated" | "unreachable" | "not-tracked";

export interface OutdatedRow {
  id: string;
  installed?: string;
  latest?: string;
  status: OutdatedStatus;
  /** For unreachable and not-tracked rows: why. */
  detail?: string;
}

export interface OutdatedInput {
  id: string;
  commit?: string;
  /** The resolved source (git-subdir/github/url carry the remote). */
  resolved?: PluginSource;
  /** The ref to follow: the catalogue's ref for the plugin, or the marketplace's. */
  ref?: string;
}

function remoteOf(source: PluginSource | undefined): string | undefined {
  if (!source) return undefined;
  if (source.kind === "github") return `https://github.com/${source.repo}.git`;
  if (source.kind === "url" || source.kind === "git-subdir") return /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(source.url) ? `https://github.com/${source.url}.git` : source.url;
  return undefined;
}

export async function checkOutdated(inputs: readonly OutdatedInput[], git: GitContext): Promise<OutdatedRow[]> {
  const rows: OutdatedRow[] = [];
  for (const input of inputs) {
    const url = remoteOf(input.resolved);
    const installed = input.commit;
    if (url === undefined || installed === undefined) {
      rows.push({ id: input.id, ...(installed ? { installed } : {}), status: "not-tracked", detail: "it was not installed from git, so there is no remote commit to compare with" });
      continue;
    }
    try {
      const client = await gitIn(tmpdir(), git, url);
      const want = input.ref ?? "HEAD";
      const output = await client.raw(["ls-remote", url, want]);
      const line = output.split("\n").find((row) => row.trim() !== "");
      const latest = line?.split(/\s+/)[0];
      if (!latest) rows.push({ id: input.id, installed, status: "unreachable", detail: `${url} has no ref ${want}` });
      else rows.push({ id: input.id, installed, latest, status: latest === installed ? "up-to-date" : "outdated" });
    } catch (error) {
      rows.push({ id: input.id, installed, status: "unreachable", detail: describeGitError(error, url, "ask for the head of").message });
    }
  }
  return rows;
}
