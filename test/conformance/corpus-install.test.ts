// Conformance through the compiled binary (issue #11 acceptance): every corpus marketplace,
// committed into a bare git repository and added over file:// with `clew plugin marketplace add`,
// validates from its installed copy with exactly EXPECTED.json's per-entry status, component ids,
// hook counts and finding codes, and lists with its entry count. The three official catalogs use
// reserved names: the CLI has no way around that (the override is in-process and test-only), so
// their add must be refused, and their conformance is checked on a `git clone` of the same
// repository. Then every `loaded` plugin of two marketplaces installs, lists enabled without
// errors, and reaches one `clew -p` session: skills in the system prompt, agents in the Agent tool.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import matter from "gray-matter";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, startFakeAnthropic, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { corpusRepo } from "../helpers/corpus-marketplaces.ts";
import { comparableMarketplace, entryMismatches, expectedMarketplaces, type ExpectedMarketplace, type MarketplaceReport } from "../helpers/corpus-expect.ts";
import { runGit, type TestRepo } from "../helpers/git-repos.ts";

const RESERVED = ["claude-plugins-official", "financial-services-plugins", "knowledge-work-plugins"];
/** Several plugins each, with hooks; neither uses a reserved name. */
const INSTALLED_MARKETPLACES = ["wshobson__agents", "Dev-GOM__claude-code-marketplace"];

const expected = expectedMarketplaces();
const configDir = tempDirectory("clew-corpus-config-");
const project = tempDirectory("clew-corpus-project-");
const repos = new Map<string, TestRepo>();
const adds = new Map<string, { code: number; stdout: string; stderr: string }>();

interface Listed {
  name: string;
  source: string;
  url?: string;
  installLocation: string;
  commit?: string;
  pluginCount: number | null;
}

async function clew(args: string[]) {
  return runClew(args, { cwd: project, configDir });
}

async function validate(path: string): Promise<MarketplaceReport | undefined> {
  const run = await clew(["plugin", "validate", path, "--json"]);
  const report = JSON.parse(run.stdout) as { kind: string; marketplace?: MarketplaceReport };
  expect(report.kind).toBe("marketplace");
  return report.marketplace;
}

function expectConforms(got: MarketplaceReport | undefined, want: ExpectedMarketplace): void {
  expect(comparableMarketplace(got)).toEqual(comparableMarketplace(want));
  expect(entryMismatches(got, want)).toEqual([]);
}

beforeAll(async () => {
  const parent = mkdtempSync(join(tmpdir(), "corpus-repos-"));
  // One add at a time: every add rewrites known_marketplaces.json.
  for (const market of expected) {
    const repo = corpusRepo(market.dir, parent);
    repos.set(market.dir, repo);
    adds.set(market.dir, await clew(["plugin", "marketplace", "add", repo.url, "--json"]));
  }
}, 120_000);

describe("corpus marketplaces added with clew plugin marketplace add", () => {
  test("the corpus holds 14 marketplaces, three of them under reserved names", () => {
    expect(expected.length).toBe(14);
    expect(expected.filter((market) => RESERVED.includes(market.name)).length).toBe(3);
  });

  test("every non-reserved one is added from its git repository; the reserved ones are refused", () => {
    const outcomes = Object.fromEntries(
      expected.map((market) => {
        const run = adds.get(market.dir);
        if (run?.code !== 0) return [market.dir, { refused: run?.stderr.includes(`The marketplace name '${market.name}' is reserved`) ?? false }];
        const added = JSON.parse(run.stdout) as { name: string; pluginCount: number; source: { source: string; url: string }; commit?: string };
        return [market.dir, { name: added.name, pluginCount: added.pluginCount, source: added.source, commit: added.commit }];
      }),
    );
    expect(outcomes).toEqual(
      Object.fromEntries(
        expected.map((market) => {
          const repo = repos.get(market.dir);
          if (RESERVED.includes(market.name)) return [market.dir, { refused: true }];
          return [market.dir, { name: market.name, pluginCount: market.pluginCount, source: { source: "git", url: repo?.url }, commit: repo?.commit }];
        }),
      ),
    );
  });

  test("marketplace list --json shows each added one with its entry count, from a clone at its commit", async () => {
    const run = await clew(["plugin", "marketplace", "list", "--json"]);
    expect(run.code).toBe(0);
    const listed = (JSON.parse(run.stdout) as Listed[]).map((entry) => ({ name: entry.name, source: entry.source, url: entry.url, commit: entry.commit, pluginCount: entry.pluginCount }));
    const want = expected
      .filter((market) => !RESERVED.includes(market.name))
      .map((market) => ({ name: market.name, source: "git", url: repos.get(market.dir)?.url, commit: repos.get(market.dir)?.commit, pluginCount: market.pluginCount }))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(listed).toEqual(want);
  });

  for (const market of expected) {
    const reserved = RESERVED.includes(market.name);
    test(`${market.dir} validates as EXPECTED.json says, ${reserved ? "from a git clone (reserved name)" : "from its installed copy"}`, async () => {
      let location: string;
      if (reserved) {
        location = join(tempDirectory("clew-corpus-clone-"), market.dir);
        runGit(tmpdir(), ["clone", "-q", repos.get(market.dir)?.url ?? "", location]);
      } else {
        const listed = JSON.parse((await clew(["plugin", "marketplace", "list", "--json"])).stdout) as Listed[];
        const found = listed.find((entry) => entry.name === market.name);
        if (!found) throw new Error(`${market.name} is not listed`);
        location = found.installLocation;
      }
      expectConforms(await validate(location), market);
    }, 30_000);
  }
});

/** The frontmatter `name` of a component file, when it has one that parses. */
function declaredName(file: string): string | undefined {
  try {
    const name = (matter(readFileSync(file, "utf8")).data as { name?: unknown }).name;
    return typeof name === "string" && name.trim() !== "" ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}

interface ListedPlugin {
  id: string;
  enabled: boolean;
  scope: string;
  errors: string[];
}

describe("installing every loaded plugin of two corpus marketplaces", () => {
  const markets = INSTALLED_MARKETPLACES.map((dir) => expected.find((market) => market.dir === dir)).filter((market) => market !== undefined);
  const loaded = markets.flatMap((market) => market.plugins.filter((plugin) => plugin.status === "loaded").map((plugin) => ({ market, plugin, id: `${plugin.name}@${market.name}` })));

  test("each installs at user scope, and plugin list --json shows them all enabled without errors", async () => {
    expect(markets.length).toBe(2);
    const failed: Array<{ id: string; code: number; stderr: string }> = [];
    // One at a time: every install rewrites installed_plugins.json and the user settings.
    for (const { id } of loaded) {
      const run = await clew(["plugin", "install", id]);
      if (run.code !== 0 || !run.stdout.includes(`Successfully installed plugin: ${id}`)) failed.push({ id, code: run.code, stderr: run.stderr });
    }
    expect(failed).toEqual([]);
    const listed = await clew(["plugin", "list", "--json"]);
    expect(listed.code).toBe(0);
    const listing = JSON.parse(listed.stdout) as { installed: ListedPlugin[]; problems: string[] };
    expect(listing.installed.map((plugin) => ({ id: plugin.id, enabled: plugin.enabled, scope: plugin.scope, errors: plugin.errors }))).toEqual(
      loaded.map(({ id }) => ({ id, enabled: true, scope: "user", errors: [] })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    );
    expect(listing.problems).toEqual([]);
  }, 120_000);

  test("one clew -p session offers every installed skill in the system prompt and every agent in the Agent tool", async () => {
    const listing = JSON.parse((await clew(["plugin", "list", "--json"])).stdout) as { installed: Array<{ id: string; installPath: string }> };
    const installPath = new Map(listing.installed.map((plugin) => [plugin.id, plugin.installPath]));
    // EXPECTED.json names a component by its path; the session may name it by its frontmatter
    // `name` (plugins.md): either name counts, read from the installed file.
    const want = loaded.map(({ plugin, id }) => {
      const files = [...new Bun.Glob("**/*.md").scanSync({ cwd: installPath.get(id) ?? "", absolute: true })];
      const names = (id: string, suffix: string) => {
        const file = files.find((path) => path.endsWith(suffix));
        return [...new Set([`${plugin.name}:${id}`, ...(file ? [`${plugin.name}:${declaredName(file) ?? id}`] : [])])];
      };
      return {
        plugin: plugin.name,
        skills: plugin.skills.map((skill) => names(skill, `/${skill}/SKILL.md`)),
        agents: plugin.agents.map((agent) => names(agent, `/${agent}.md`)),
      };
    });
    expect(want.reduce((sum, plugin) => sum + plugin.skills.length + plugin.agents.length, 0)).toBe(loaded.reduce((sum, { plugin }) => sum + plugin.skills.length + plugin.agents.length, 0));

    const server = await startFakeAnthropic({ script: [reply().text("ready")] });
    try {
      const run = await runClew(["-p", "hi"], { cwd: project, baseURL: server.url, configDir });
      expect({ code: run.code, stdout: run.stdout.trim() }).toEqual({ code: 0, stdout: "ready" });
      const first = server.requests.find((request) => request.endpoint === "messages") as RecordedRequest;
      const system = JSON.stringify(first.body.system);
      const agentTool = (first.body.tools as Array<{ name: string; description: string }>).find((tool) => tool.name === "Agent");
      // A line is `- plugin:agent: description (Tools: …)`, or with hundreds of agents (over the
      // listing's budget) possibly the name alone: `- plugin:agent (Tools: …)`.
      const offeredAgents = (agentTool?.description ?? "").split("\n").flatMap((line) => /^- ([^:\s]+:[^\s:]+)(?:: | \(Tools: )/.exec(line)?.[1] ?? []);
      const offered = (names: string[], where: (name: string) => boolean) => names.some(where);
      expect({
        missingSkills: want.flatMap((plugin) => plugin.skills.filter((names) => !offered(names, (name) => system.includes(name))).map((names) => names.join(" or "))),
        missingAgents: want.flatMap((plugin) => plugin.agents.filter((names) => !offered(names, (name) => offeredAgents.includes(name))).map((names) => names.join(" or "))),
        agentsPerPlugin: Object.fromEntries(want.map((plugin) => [plugin.plugin, offeredAgents.filter((name) => name.startsWith(`${plugin.plugin}:`)).length])),
      }).toEqual({ missingSkills: [], missingAgents: [], agentsPerPlugin: Object.fromEntries(want.map((plugin) => [plugin.plugin, plugin.agents.length])) });
    } finally {
      await server.close();
    }
  }, 60_000);
});
