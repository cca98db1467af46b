/**
 * A marketplace entry's `source` (marketplaces.md §4) as a PluginSource. A source that cannot be
 * used makes only that entry invalid (the v2.1.120+ behaviour): the reason comes back as text.
 */
import { isAbsolute, normalize } from "node:path";
import { isObject } from "./plugin-files.ts";
import type { PluginSource } from "./types.ts";

export type SourceRead = { ok: true; source: PluginSource; warnings: string[] } | { ok: false; reason: string; source: PluginSource };

const SHA = /^[0-9a-f]{40}$/i;

function optionalStrings(raw: Record<string, unknown>, keys: readonly string[]): { values: Record<string, string>; bad: string[] } {
  const values: Record<string, string> = {};
  const bad: string[] = [];
  for (const key of keys) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value === "string" && value !== "") values[key] = value;
    else bad.push(key);
  }
  return { values, bad };
}

/** `./plugins/x` → `plugins/x`, `./` and `.` → `.`; undefined when the path leaves the marketplace. */
function insideRelative(path: string): string | undefined {
  const normal = normalize(path).replace(/\/+$/, "") || ".";
  if (normal === ".." || normal.startsWith("../") || isAbsolute(normal)) return undefined;
  return normal;
}

function readRelative(value: string, pluginRoot: string | undefined): SourceRead {
  const unknown: PluginSource = { kind: "unknown", raw: value };
  if (isAbsolute(value)) return { ok: false, reason: `source "${value}" is absolute; relative sources start with "./" and resolve against the marketplace root`, source: unknown };
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    return { ok: false, reason: `source "${value}" is not a source form clew knows; write {"source": "github", "repo": "owner/repo"} or {"source": "url", "url": "…"}`, source: unknown };
  }
  const warnings: string[] = [];
  let path = value;
  if (value !== "." && !value.startsWith("./")) {
    if (!value.includes("/") && pluginRoot !== undefined) path = `${pluginRoot}/${value}`;
    else warnings.push(`source "${value}" should start with "./" (Claude Code refuses other relative forms)`);
  }
  const inside = insideRelative(path);
  if (inside === undefined) return { ok: false, reason: `source "${value}": Path contains ".." and leaves the marketplace; plugins must live inside it`, source: unknown };
  return { ok: true, source: { kind: "relative", path: inside }, warnings };
}

function readObject(raw: Record<string, unknown>): SourceRead {
  const unknown: PluginSource = { kind: "unknown", raw };
  const kind = raw.source;
  const fail = (reason: string): SourceRead => ({ ok: false, reason, source: unknown });
  const warnings: string[] = [];
  const pins = optionalStrings(raw, ["ref", "sha", "path"]);
  if (pins.bad.length > 0) return fail(`source ${pins.bad.map((key) => `"${key}"`).join(", ")} must be a non-empty string`);
  const { ref, sha, path } = pins.values;
  if (sha !== undefined && !SHA.test(sha)) warnings.push(`source "sha" "${sha}" is not a full 40-character commit hash; fetching by it may fail`);
  const pinned = { ...(ref === undefined ? {} : { ref }), ...(sha === undefined ? {} : { sha }) };
  switch (kind) {
    case "github": {
      if (typeof raw.repo !== "string" || !/^[\w.-]+\/[\w.-]+$/.test(raw.repo)) return fail('a "github" source needs "repo": "owner/repo"');
      return { ok: true, source: { kind: "github", repo: raw.repo, ...pinned, ...(path === undefined ? {} : { path }) }, warnings };
    }
    case "url": {
      if (typeof raw.url !== "string" || raw.url === "") return fail('a "url" source needs "url": the git URL to clone');
      // `path` on a url source is undocumented but used by the official catalog: honoured as a subfolder.
      return { ok: true, source: { kind: "url", url: raw.url, ...pinned, ...(path === undefined ? {} : { path }) }, warnings };
    }
    case "git-subdir": {
      if (typeof raw.url !== "string" || raw.url === "") return fail('a "git-subdir" source needs "url": the repository to clone');
      if (path === undefined) return fail('a "git-subdir" source needs "path": the plugin folder inside the repository');
      return { ok: true, source: { kind: "git-subdir", url: raw.url, path, ...pinned }, warnings };
    }
    case "npm": {
      if (typeof raw.package !== "string" || raw.package === "") return fail('an "npm" source needs "package": the package name');
      const extra = optionalStrings(raw, ["version", "registry"]);
      return { ok: true, source: { kind: "npm", package: raw.package, ...extra.values }, warnings };
    }
    case "archive": {
      if (typeof raw.url !== "string" || !raw.url.startsWith("https://")) return fail('an "archive" source needs an https "url" of the zip file');
      const sha256 = typeof raw.sha256 === "string" ? raw.sha256 : undefined;
      if (sha256 !== undefined && !/^[0-9a-f]{64}$/i.test(sha256)) return fail('archive "sha256" must be 64 hexadecimal characters');
      return { ok: true, source: { kind: "archive", url: raw.url, ...(sha256 === undefined ? {} : { sha256 }) }, warnings };
    }
    case "command": {
      if (typeof raw.command !== "string" || raw.command === "") return fail('a "command" source needs "command": the shell command that prints the plugin folder');
      return { ok: true, source: { kind: "command", command: raw.command, raw }, warnings };
    }
    default:
      return fail(typeof kind === "string" ? `source type "${kind}" is not supported (github, url, git-subdir, npm, archive, command, or a "./" path)` : 'an object source needs "source": its type (github, url, git-subdir, npm, archive, command)');
  }
}

export function readEntrySource(value: unknown, pluginRoot: string | undefined): SourceRead {
  if (typeof value === "string") return readRelative(value, pluginRoot);
  if (isObject(value)) return readObject(value);
  return { ok: false, reason: value === undefined ? 'the entry has no "source"; give "./path" or a source object' : '"source" must be a "./path" string or a source object', source: { kind: "unknown", raw: value } };
}

/** Sources whose files are not in the marketplace: listed, fetched at install. */
export function isRemote(source: PluginSource): boolean {
  return source.kind !== "relative" && source.kind !== "unknown";
}
