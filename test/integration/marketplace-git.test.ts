// Marketplaces against real git: bare repositories over file:// and over a real `git daemon`
// on 127.0.0.1, the user's GIT_SSH_COMMAND honoured, pins, updates, failures that keep the last
// good copy, removal, and plugin sources fetched into the per-commit cache.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { addMarketplace, listMarketplaces, type MarketplaceContext, removeMarketplace } from "../../src/plugins/marketplaces/manager.ts";
import { fetchPluginSource } from "../../src/plugins/marketplaces/fetch-source.ts";
import { updateMarketplace } from "../../src/plugins/marketplaces/update.ts";
import { commitFile, type GitDaemon, gitRepoFrom, startGitDaemon, type TestRepo } from "../helpers/git-repos.ts";

function catalog(name: string, plugins: string[]): string {
  return JSON.stringify({ name, owner: { name: "Tests" }, plugins: plugins.map((plugin) => ({ name: plugin, source: `./plugins/${plugin}` })) });
}

function marketFolder(name: string, plugins: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "market-src-"));
  mkdirSync(join(dir, ".claude-plugin"));
  writeFileSync(join(dir, ".claude-plugin/marketplace.json"), catalog(name, plugins));
  for (const plugin of plugins) {
    mkdirSync(join(dir, "plugins", plugin, "commands"), { recursive: true });
    writeFileSync(join(dir, "plugins", plugin, "commands/hello.md"), `Say hello from ${plugin}.\n`);
  }
  return dir;
}

function context(extraEnv: Record<string, string> = {}): MarketplaceContext {
  const home = mkdtempSync(join(tmpdir(), "home-"));
  return { pluginsDir: join(home, ".clew/plugins"), cwd: home, homeDir: home, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...extraEnv } };
}

function stateOf(ctx: MarketplaceContext): Record<string, { source: unknown; installLocation: string; commit?: string }> {
  return JSON.parse(readFileSync(join(ctx.pluginsDir, "known_marketplaces.json"), "utf8"));
}

describe("marketplaces over file://", () => {
  test("add clones the repository, registers it under the catalog's name and lists it", async () => {
    const repo = gitRepoFrom(marketFolder("team-tools", ["alpha", "beta"]));
    const ctx = context();
    const added = await addMarketplace(repo.url, ctx);
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const location = join(ctx.pluginsDir, "marketplaces/team-tools");
    expect(added.value).toEqual({ name: "team-tools", pluginCount: 2, record: { source: { source: "git", url: repo.url }, installLocation: location, lastUpdated: added.value.record.lastUpdated, commit: repo.commit } });
    expect(existsSync(join(location, "plugins/alpha/commands/hello.md"))).toBe(true);
    expect(stateOf(ctx)).toEqual({ "team-tools": added.value.record });
    const listed = await listMarketplaces(ctx);
    expect(listed.ok && listed.value).toEqual([
      { name: "team-tools", source: "git", url: repo.url, installLocation: location, lastUpdated: added.value.record.lastUpdated, autoUpdate: false, commit: repo.commit, pluginCount: 2 },
    ]);
  });

  test("a #ref pin holds: a later commit on another branch does not move it, one on the pinned branch does", async () => {
    let repo = gitRepoFrom(marketFolder("pinned", ["alpha"]));
    repo = commitFile(repo, { ".claude-plugin/marketplace.json": catalog("pinned", ["alpha"]), "NOTE.md": "stable\n" }, { branch: "stable" });
    const pinnedCommit = repo.commit;
    const ctx = context();
    const added = await addMarketplace(`${repo.url}#stable`, ctx);
    expect(added.ok && added.value.record.commit).toBe(pinnedCommit);
    commitFile({ ...repo, branch: "main" }, { ".claude-plugin/marketplace.json": catalog("pinned", ["alpha", "beta"]) });
    const updated = await updateMarketplace("pinned", ctx);
    expect(updated.ok && updated.value).toEqual([{ name: "pinned", ok: true, pluginCount: 1, commit: pinnedCommit, previousCommit: pinnedCommit, changed: false, notes: [] }]);
    const moved = commitFile(repo, { "NOTE.md": "stable 2\n" }, { branch: "stable" });
    const again = await updateMarketplace("pinned", ctx);
    expect(again.ok && again.value[0]).toMatchObject({ ok: true, commit: moved.commit, changed: true });
  });

  test("update brings an upstream commit; a failing update keeps the last good copy and says so", async () => {
    const repo = gitRepoFrom(marketFolder("moving", ["alpha"]));
    const ctx = context();
    await addMarketplace(repo.url, ctx);
    const next = commitFile(repo, { ".claude-plugin/marketplace.json": catalog("moving", ["alpha", "gamma"]), "plugins/gamma/commands/g.md": "g\n" });
    const updated = await updateMarketplace(undefined, ctx);
    expect(updated.ok && updated.value).toEqual([{ name: "moving", ok: true, pluginCount: 2, commit: next.commit, previousCommit: repo.commit, changed: true, notes: [] }]);
    const location = join(ctx.pluginsDir, "marketplaces/moving");
    expect(existsSync(join(location, "plugins/gamma/commands/g.md"))).toBe(true);

    renameSync(repo.bare, `${repo.bare}.gone`);
    const failed = await updateMarketplace("moving", ctx);
    expect(failed.ok).toBe(true);
    if (!failed.ok) return;
    const [result] = failed.value;
    expect(result?.ok).toBe(false);
    if (result === undefined || result.ok) return;
    expect({ code: result.code, keptLastGood: result.keptLastGood }).toEqual({ code: "not-found", keptLastGood: true });
    expect(result.error).toContain("Kept the last good copy of 'moving'");
    expect(existsSync(join(location, "plugins/gamma/commands/g.md"))).toBe(true);
    expect(stateOf(ctx).moving?.commit).toBe(next.commit);
  });

  test("remove deletes the copy and the state entry; an unknown name is a clear error", async () => {
    const repo = gitRepoFrom(marketFolder("short-lived", ["alpha"]));
    const ctx = context();
    await addMarketplace(repo.url, ctx);
    const removed = await removeMarketplace("short-lived", ctx);
    expect(removed.ok && removed.value).toEqual({ name: "short-lived", source: { source: "git", url: repo.url }, deletedCopy: true });
    expect(existsSync(join(ctx.pluginsDir, "marketplaces/short-lived"))).toBe(false);
    expect(stateOf(ctx)).toEqual({});
    const again = await removeMarketplace("short-lived", ctx);
    expect(again.ok ? "ok" : again.code).toBe("unknown-marketplace");
  });

  test("a reserved name from a third-party source is refused and nothing is registered", async () => {
    const repo = gitRepoFrom(marketFolder("claude-plugins-official", ["alpha"]));
    const ctx = context();
    const added = await addMarketplace(repo.url, ctx);
    expect(added.ok ? "ok" : added.code).toBe("reserved-name");
    if (!added.ok) expect(added.error).toContain("reserved for Anthropic");
    expect(existsSync(join(ctx.pluginsDir, "known_marketplaces.json"))).toBe(false);
  });

  test("a second add of the same name replaces the first registration and says so", async () => {
    const first = gitRepoFrom(marketFolder("same-name", ["alpha"]));
    const second = gitRepoFrom(marketFolder("same-name", ["alpha", "beta"]));
    const ctx = context();
    await addMarketplace(first.url, ctx);
    const again = await addMarketplace(second.url, ctx);
    expect(again.ok && { replaced: again.value.replaced, count: again.value.pluginCount }).toEqual({ replaced: { source: "git", url: first.url }, count: 2 });
    expect(again.ok && again.notes.some((note) => note.includes("was already added"))).toBe(true);
  });

  test("local folders are used in place and catalog files resolve to their folder; removing leaves them alone", async () => {
    const folder = marketFolder("local-dev", ["alpha"]);
    const ctx = context();
    const added = await addMarketplace(folder, ctx);
    expect(added.ok && added.value.record.installLocation).toBe(folder);
    const byFile = await addMarketplace(join(folder, ".claude-plugin/marketplace.json"), ctx);
    expect(byFile.ok && byFile.value.record).toMatchObject({ source: { source: "file", path: join(folder, ".claude-plugin/marketplace.json") }, installLocation: folder });
    await removeMarketplace("local-dev", ctx);
    expect(existsSync(join(folder, ".claude-plugin/marketplace.json"))).toBe(true);
  });

  test("the user's git configuration from the environment applies (url.insteadOf via GIT_CONFIG_*)", async () => {
    const repo = gitRepoFrom(marketFolder("rewritten", ["alpha"]));
    const ctx = context({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: `url.${repo.url}.insteadOf`, GIT_CONFIG_VALUE_0: "https://git.example.invalid/team/market.git" });
    const added = await addMarketplace("https://git.example.invalid/team/market.git", ctx);
    expect(added.ok && added.value.name).toBe("rewritten");
  });

  test("the user's GIT_SSH_COMMAND carries ssh remotes", async () => {
    const repo = gitRepoFrom(marketFolder("over-ssh", ["alpha"]));
    const fakeSsh = join(mkdtempSync(join(tmpdir(), "ssh-")), "fake-ssh");
    // Stands in for ssh: runs the remote command (git-upload-pack '<path>') locally.
    writeFileSync(fakeSsh, '#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n');
    chmodSync(fakeSsh, 0o755);
    const ctx = context({ GIT_SSH_COMMAND: fakeSsh });
    const added = await addMarketplace(`ssh://git@fake-host${repo.bare}`, ctx);
    expect(added.ok && { name: added.value.name, commit: added.value.record.commit }).toEqual({ name: "over-ssh", commit: repo.commit });
  });

  test("an auth-style failure names the host and what to try", async () => {
    const fakeSsh = join(mkdtempSync(join(tmpdir(), "ssh-")), "deny-ssh");
    writeFileSync(fakeSsh, '#!/bin/sh\necho "git@git.example.com: Permission denied (publickey)." >&2\nexit 255\n');
    chmodSync(fakeSsh, 0o755);
    const added = await addMarketplace("git@git.example.com:team/market.git", context({ GIT_SSH_COMMAND: fakeSsh }));
    expect(added.ok ? "ok" : added.code).toBe("auth");
    if (!added.ok) {
      expect(added.error).toContain("git.example.com");
      expect(added.error).toContain("ssh-agent");
    }
  });
});

describe("marketplaces over git daemon on 127.0.0.1", () => {
  let daemon: GitDaemon;
  let repo: TestRepo;
  beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), "daemon-"));
    repo = gitRepoFrom(marketFolder("daemon-market", ["alpha"]), { parent: base });
    daemon = await startGitDaemon(base, repo.bare);
  });
  afterAll(async () => daemon?.stop());

  test("add and update over git://", async () => {
    const ctx = context();
    const url = daemon.urlOf(repo.bare);
    const added = await addMarketplace(url, ctx);
    expect(added.ok && { name: added.value.name, commit: added.value.record.commit, source: added.value.record.source }).toEqual({ name: "daemon-market", commit: repo.commit, source: { source: "git", url } });
    const next = commitFile(repo, { "plugins/alpha/commands/new.md": "new\n" });
    const updated = await updateMarketplace("daemon-market", ctx);
    expect(updated.ok && updated.value[0]).toMatchObject({ ok: true, commit: next.commit, changed: true });
  });
});

describe("plugin sources for install", () => {
  test("git-subdir is a sparse checkout of the path, cached per commit and reused for a pinned sha", async () => {
    const folder = marketFolder("sources", ["alpha", "beta"]);
    const repo = gitRepoFrom(folder);
    const ctx = context();
    const fetched = await fetchPluginSource({ kind: "git-subdir", url: repo.url, path: "plugins/beta" }, { pluginsDir: ctx.pluginsDir, env: ctx.env });
    if ("error" in fetched) throw new Error(fetched.error);
    expect(fetched.commit).toBe(repo.commit);
    expect(fetched.dir.startsWith(join(ctx.pluginsDir, "sources"))).toBe(true);
    expect(dirname(dirname(fetched.dir)).endsWith(repo.commit)).toBe(true);
    expect(readFileSync(join(fetched.dir, "commands/hello.md"), "utf8")).toBe("Say hello from beta.\n");
    expect(existsSync(join(dirname(fetched.dir), "alpha"))).toBe(false);
    renameSync(repo.bare, `${repo.bare}.gone`);
    const cached = await fetchPluginSource({ kind: "git-subdir", url: repo.url, path: "plugins/beta", sha: repo.commit }, { pluginsDir: ctx.pluginsDir, env: ctx.env });
    expect(cached).toEqual({ dir: fetched.dir, commit: repo.commit });
  });

  test("url sources with sha, relative sources inside the copy, and clear errors", async () => {
    let repo = gitRepoFrom(marketFolder("sources2", ["alpha"]));
    const first = repo.commit;
    repo = commitFile(repo, { "plugins/alpha/commands/hello.md": "changed\n" });
    const ctx = context();
    const pinned = await fetchPluginSource({ kind: "url", url: repo.url, sha: first }, { pluginsDir: ctx.pluginsDir, env: ctx.env });
    if ("error" in pinned) throw new Error(pinned.error);
    expect({ commit: pinned.commit, text: readFileSync(join(pinned.dir, "plugins/alpha/commands/hello.md"), "utf8") }).toEqual({ commit: first, text: "Say hello from alpha.\n" });
    const added = await addMarketplace(repo.url, ctx);
    if (!added.ok) throw new Error(added.error);
    const relative = await fetchPluginSource({ kind: "relative", path: "./plugins/alpha" }, { marketplaceRoot: added.value.record.installLocation, pluginsDir: ctx.pluginsDir, env: ctx.env });
    expect(relative).toEqual({ dir: join(added.value.record.installLocation, "plugins/alpha"), commit: repo.commit });
    const escape = await fetchPluginSource({ kind: "relative", path: "../../etc" }, { marketplaceRoot: added.value.record.installLocation, pluginsDir: ctx.pluginsDir, env: ctx.env });
    expect("error" in escape && escape.error).toContain("outside the marketplace");
    const missing = await fetchPluginSource({ kind: "url", url: `${repo.url}-missing` }, { pluginsDir: ctx.pluginsDir, env: ctx.env });
    expect("error" in missing && missing.error).toContain("this machine");
  });
});
