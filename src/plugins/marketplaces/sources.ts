/**
 * What the user typed after `clew plugin marketplace add`, turned into a marketplace source in
 * the shape Claude Code stores (marketplaces.md §6.1, §8): `github`, `git`, `url`, `file`,
 * `directory`. Pure: the caller passes the directory relative paths resolve against and the home
 * directory for `~`.
 */
import { isAbsolute, join, resolve } from "node:path";

export type MarketplaceSource =
  | { source: "github"; repo: string; ref?: string; path?: string }
  | { source: "git"; url: string; ref?: string; path?: string }
  | { source: "url"; url: string; headers?: Record<string, string> }
  | { source: "file"; path: string }
  | { source: "directory"; path: string };

export type ParsedSource = { ok: true; source: MarketplaceSource } | { ok: false; error: string };

const OWNER_REPO = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]+?)(?:\.git)?(?:[@#](.+))?$/;

function splitHashRef(input: string): { base: string; ref?: string } {
  const hash = input.indexOf("#");
  if (hash < 0) return { base: input };
  const ref = input.slice(hash + 1);
  return ref === "" ? { base: input.slice(0, hash) } : { base: input.slice(0, hash), ref };
}

/** `…/repo.git@v2`: an `@ref` after the `.git` of a git URL. */
function splitAtRef(input: string): { base: string; ref?: string } {
  const match = /^(.*\.git)@([^/@:]+)$/.exec(input);
  return match?.[1] && match[2] ? { base: match[1], ref: match[2] } : { base: input };
}

function gitSource(raw: string): MarketplaceSource {
  const hashed = splitHashRef(raw);
  const { base, ref } = hashed.ref !== undefined ? hashed : splitAtRef(hashed.base);
  return ref !== undefined ? { source: "git", url: base, ref } : { source: "git", url: base };
}

function isGitHttpUrl(url: URL, raw: string): boolean {
  const path = url.pathname.replace(/\/+$/, "");
  if (/\.git$/.test(path) || /\.git@[^/]+$/.test(raw)) return true;
  if (path.includes("/_git/")) return true;
  const host = url.hostname.toLowerCase();
  // github.com/o/r and gitlab.com/g[/sub]/p are repositories even without `.git`.
  if (host === "github.com" && /^\/[^/]+\/[^/]+$/.test(path)) return true;
  if (host === "gitlab.com" && path.split("/").filter(Boolean).length >= 2 && !path.endsWith(".json")) return true;
  return false;
}

export function parseMarketplaceInput(input: string, cwd: string, homeDir: string): ParsedSource {
  const raw = input.trim();
  if (raw === "") return { ok: false, error: "Give a marketplace source: owner/repo, a git URL, a folder or a marketplace.json file or URL." };
  if (/^[^/@:\s]+@[^:/\s]+:/.test(raw)) return { ok: true, source: gitSource(raw) };
  if (/^(ssh|git|file|git\+ssh):\/\//i.test(raw)) return { ok: true, source: gitSource(raw) };
  if (/^https?:\/\//i.test(raw)) {
    let url: URL;
    try {
      url = new URL(splitHashRef(raw).base);
    } catch {
      return { ok: false, error: `'${raw}' is not a valid URL.` };
    }
    if (isGitHttpUrl(url, splitHashRef(raw).base)) return { ok: true, source: gitSource(raw) };
    return { ok: true, source: { source: "url", url: raw } };
  }
  const expanded = raw === "~" ? homeDir : raw.startsWith("~/") ? join(homeDir, raw.slice(2)) : raw;
  const looksLocal = expanded.startsWith("./") || expanded.startsWith("../") || expanded === "." || expanded === ".." || isAbsolute(expanded) || expanded.endsWith(".json");
  if (looksLocal) {
    const path = resolve(cwd, expanded);
    return { ok: true, source: path.endsWith(".json") ? { source: "file", path } : { source: "directory", path } };
  }
  const match = OWNER_REPO.exec(raw);
  if (match?.[1] && match[2]) {
    const repo = `${match[1]}/${match[2]}`;
    return { ok: true, source: match[3] ? { source: "github", repo, ref: match[3] } : { source: "github", repo } };
  }
  if (/^[^/\s]+\.[^/\s]+\/\S+/.test(raw)) {
    return { ok: false, error: `'${raw}' is not a valid owner/repo. For a host other than GitHub give the full URL (https://${raw} or git@${raw.replace("/", ":")}).` };
  }
  return { ok: false, error: `'${raw}' is not a marketplace source clew understands. Use owner/repo, a git URL (https://…/x.git, git@host:path), ./folder, ./marketplace.json or an https URL of a marketplace.json.` };
}

/** The URL git clones for a source (`github` sources over https; see the README for why not ssh). */
export function cloneUrlOf(source: MarketplaceSource): string | undefined {
  if (source.source === "github") return `https://github.com/${source.repo}.git`;
  if (source.source === "git") return source.url;
  return undefined;
}

/** One line for humans: `GitHub (owner/repo#ref)`, `Git (url)`, `Directory (/path)`. */
export function describeSource(source: MarketplaceSource): string {
  switch (source.source) {
    case "github":
      return `GitHub (${source.repo}${source.ref ? `#${source.ref}` : ""})`;
    case "git":
      return `Git (${source.url}${source.ref ? `#${source.ref}` : ""})`;
    case "url":
      return `URL (${source.url})`;
    case "file":
      return `File (${source.path})`;
    case "directory":
      return `Directory (${source.path})`;
  }
}
