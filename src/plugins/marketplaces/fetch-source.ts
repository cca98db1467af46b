/**
 * Fetching a plugin's files for install (marketplaces.md §4): a relative path inside the
 * marketplace copy, or a remote (`github`, `url`, `git-subdir`, `npm`) into a cache per commit,
 * `<pluginsDir>/sources/<hash of the remote>/<commit>/`, cloned one commit deep and sparse when
 * only a subfolder is wanted. A source pinned to a sha already in the cache needs no network.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { PluginSource } from "../types.ts";
import { checkoutRemote, type GitContext, headCommit } from "../git/clone.ts";
import { GitFailure } from "../git/remote.ts";

export interface FetchSourceContext {
  /** The marketplace root relative sources resolve against (needed only for relative sources). */
  marketplaceRoot?: string;
  pluginsDir: string;
  /** The user's environment, handed to git and npm whole. */
  env: Record<string, string>;
  githubToken?: string;
  nonInteractive?: boolean;
}

export type FetchedSource = { dir: string; commit?: string } | { error: string };

function hashOf(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 24);
}

/** `owner/repo` (git-subdir allows it) → the GitHub https URL. */
function gitUrlOf(url: string): { url: string; github: boolean } {
  if (/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(url)) return { url: `https://github.com/${url.replace(/\.git$/, "")}.git`, github: true };
  return { url, github: /^(https:\/\/github\.com\/|git@github\.com:)/i.test(url) };
}

function insideOf(root: string, path: string): string | undefined {
  const target = resolve(root, path);
  const rel = relative(root, target);
  return rel.startsWith("..") || isAbsolute(rel) ? undefined : target;
}

async function fetchRelative(path: string, context: FetchSourceContext): Promise<FetchedSource> {
  const root = context.marketplaceRoot;
  if (root === undefined) return { error: `The plugin source '${path}' is relative, and no marketplace copy was given to resolve it in.` };
  const dir = insideOf(root, path);
  if (dir === undefined) return { error: `The plugin source '${path}' points outside the marketplace ${root}; relative sources must stay inside it.` };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { error: `The plugin source '${path}' does not exist in the marketplace copy at ${root} (path not found). A marketplace added by URL has only its catalog, so relative sources cannot be installed from it.` };
  try {
    return { dir, commit: await headCommit(root, { env: context.env }) };
  } catch {
    return { dir };
  }
}

async function fetchGit(request: { url: string; ref?: string; sha?: string; path?: string; github: boolean }, context: FetchSourceContext): Promise<FetchedSource> {
  const subpath = request.path?.replace(/^\.\//, "").replace(/\/+$/, "");
  if (subpath?.split("/").includes("..")) return { error: `The plugin source path '${request.path}' must be a folder inside the repository.` };
  const sparse = subpath !== undefined && subpath !== "" ? [subpath] : undefined;
  const cacheRoot = join(context.pluginsDir, "sources", hashOf(`${request.url}${sparse ? `#${subpath}` : ""}`));
  const within = (dir: string) => (sparse ? join(dir, subpath ?? "") : dir);
  if (request.sha !== undefined && existsSync(join(cacheRoot, request.sha))) return { dir: within(join(cacheRoot, request.sha)), commit: request.sha };
  await mkdir(cacheRoot, { recursive: true });
  const temp = join(cacheRoot, `.fetch-${hashOf(`${Date.now()}${Math.random()}`).slice(0, 8)}`);
  const git: GitContext = {
    env: context.env,
    ...(request.github && context.githubToken !== undefined ? { githubToken: context.githubToken } : {}),
    ...(context.nonInteractive ? { nonInteractive: true } : {}),
  };
  let commit: string;
  try {
    commit = await checkoutRemote({ url: request.url, ...(request.ref !== undefined ? { ref: request.ref } : {}), ...(request.sha !== undefined ? { sha: request.sha } : {}), ...(sparse ? { sparse } : {}) }, temp, git);
  } catch (error) {
    if (error instanceof GitFailure) return { error: error.message };
    throw error;
  }
  const final = join(cacheRoot, commit);
  if (existsSync(final)) {
    await rm(temp, { recursive: true, force: true });
  } else {
    await rename(temp, final);
  }
  const dir = within(final);
  if (!existsSync(dir)) return { error: `The repository ${request.url} at ${commit.slice(0, 12)} has no folder '${subpath}'.` };
  return { dir, commit };
}

async function run(command: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const child = Bun.spawn(command, { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { code, stdout, stderr };
  } catch (error) {
    return { code: 127, stdout: "", stderr: (error as Error).message };
  }
}

async function fetchNpm(source: { package: string; version?: string; registry?: string }, context: FetchSourceContext): Promise<FetchedSource> {
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(source.package)) return { error: `'${source.package}' is not an npm package name.` };
  const spec = source.version ? `${source.package}@${source.version}` : source.package;
  const cacheRoot = join(context.pluginsDir, "sources", `npm-${hashOf(`${source.package}|${source.registry ?? ""}`)}`);
  await mkdir(cacheRoot, { recursive: true });
  const work = await mkdtemp(join(cacheRoot, ".pack-"));
  try {
    const packed = await run(["npm", "pack", spec, "--json", "--pack-destination", work, ...(source.registry ? ["--registry", source.registry] : [])], work, context.env);
    if (packed.code === 127) return { error: `The plugin ${source.package} is an npm package and npm was not found on PATH; install Node.js (npm) and try again.` };
    if (packed.code !== 0) return { error: `npm could not fetch ${spec}${source.registry ? ` from ${source.registry}` : ""}: ${packed.stderr.trim().split("\n").slice(-3).join(" ")}` };
    const info = (JSON.parse(packed.stdout) as Array<{ filename?: string; version?: string }>)[0];
    if (!info?.filename || !info.version) return { error: `npm pack of ${spec} did not say which tarball it wrote.` };
    const final = join(cacheRoot, info.version);
    if (!existsSync(final)) {
      const unpack = join(work, "unpacked");
      await mkdir(unpack);
      const tar = await run(["tar", "-xzf", join(work, info.filename), "-C", unpack, "--strip-components=1"], work, context.env);
      if (tar.code !== 0) return { error: `Could not unpack ${info.filename}: ${tar.stderr.trim()}` };
      await rename(unpack, final);
    }
    return { dir: final };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function fetchPluginSource(source: PluginSource, context: FetchSourceContext): Promise<FetchedSource> {
  switch (source.kind) {
    case "relative":
      return fetchRelative(source.path, context);
    case "github":
      return fetchGit({ url: `https://github.com/${source.repo.replace(/\.git$/, "")}.git`, ref: source.ref, sha: source.sha, path: source.path, github: true }, context);
    case "url": {
      const target = gitUrlOf(source.url);
      return fetchGit({ ...target, ref: source.ref, sha: source.sha, path: source.path }, context);
    }
    case "git-subdir": {
      const target = gitUrlOf(source.url);
      return fetchGit({ ...target, ref: source.ref, sha: source.sha, path: source.path }, context);
    }
    case "npm":
      return fetchNpm(source, context);
    case "archive":
      return { error: `The plugin's archive source (${source.url}) is not supported by clew yet; ask the marketplace for a git source.` };
    case "command":
      return { error: "The plugin's command source is not supported by clew yet (it would run a shell command to produce the plugin)." };
    case "unknown":
      return { error: "This plugin uses a source type clew does not support. Update clew and try again." };
  }
}
