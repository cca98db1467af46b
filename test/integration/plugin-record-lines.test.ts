// The stored plugin record with more problem lines than a start prints: the front keeps the first
// of them and their count, so a warm start prints exactly what the cold one printed (the first 8,
// then how many more) while every line and plugin id is still there when asked for; a front whose
// second part was changed by hand is a damaged record: a start reads that part only when first
// asked for it, and then refuses every plugin of the record, says so once and drops the record, so
// the next start loads from the folders again.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeTree } from "../helpers/files.ts";
import { installFrom, recordEnvironment, startInChild } from "../helpers/plugin-record.ts";
import { tempDir } from "../helpers/tool-session.ts";

const NOISY = 12;
const configDir = tempDir("clew-record-lines-home-");
const project = tempDir("clew-record-lines-project-");

interface Start {
  startUpProblems: string[];
  startupLines: { lines: string[]; count: number };
  ids: Array<{ id: string }>;
  problems: string[];
  wrote: boolean;
  admitted: string[];
  reported: string[];
  fronts: number;
}

const start = (): Start => startInChild<Start>(configDir, project);

let cold: Start;

beforeAll(async () => {
  const market = tempDir("clew-record-lines-market-");
  const plugins = Array.from({ length: NOISY }, (_, index) => ({ name: `noisy-${String(index).padStart(2, "0")}`, source: `./noisy-${index}` }));
  writeTree(market, { ".claude-plugin/marketplace.json": JSON.stringify({ name: "acme", owner: { name: "Acme" }, plugins }) });
  plugins.forEach((plugin, index) => {
    writeTree(market, {
      [`noisy-${index}/.claude-plugin/plugin.json`]: JSON.stringify({ name: plugin.name, version: "1.0.0", keywords: 5 }),
      [`noisy-${index}/skills/s${index}/SKILL.md`]: `---\nname: s${index}\ndescription: Skill ${index}\n---\nBody.\n`,
    });
  });
  await installFrom(recordEnvironment(configDir, project), project, market, plugins.map((plugin) => plugin.name));
  cold = start();
}, 60_000);

describe("the stored plugin record's start-up lines", () => {
  test("the cold start prints the first 8 problems and counts the rest; every line is there when asked for", () => {
    expect(cold.wrote).toBe(true);
    expect(cold.ids).toHaveLength(NOISY);
    expect(cold.problems).toHaveLength(NOISY);
    expect(cold.problems.every((line) => line.includes("\"keywords\""))).toBe(true);
    expect(cold.startupLines).toEqual({ lines: cold.problems.slice(0, 9), count: NOISY });
    expect(cold.startUpProblems).toEqual([cold.problems.slice(0, 8).join("\n"), `clew: ${NOISY - 8} more plugin problems; \`clew plugin list\` (installed) or \`clew plugin validate <folder>\` shows each plugin's.`]);
  });

  test("a warm start prints the same and still has every line and id", () => {
    const warm = start();
    expect(warm).toEqual({ ...cold, wrote: false });
  });

  test("a front whose second part was changed by hand: once it is read, every plugin is refused, said once, and the record dropped; the next start loads from the folders", () => {
    const index = join(configDir, "plugins", "index");
    const front = readdirSync(index).find((name) => name.startsWith("session-") && !name.endsWith(".rest.json")) ?? "";
    const text = readFileSync(join(index, front), "latin1");
    // The last line's mention is in the second part, past the line break that ends the first.
    const at = text.lastIndexOf("keywords");
    expect(at).toBeGreaterThan(text.indexOf("\n"));
    writeFileSync(join(index, front), `${text.slice(0, at)}kEywords${text.slice(at + "keywords".length)}`, "latin1");
    const damaged = start();
    // What the first line holds is printed as before; the ids and lines are not taken from the changed part.
    expect({ startUpProblems: damaged.startUpProblems, startupLines: damaged.startupLines, ids: damaged.ids, problems: damaged.problems, admitted: damaged.admitted, fronts: damaged.fronts, wrote: damaged.wrote }).toEqual({
      startUpProblems: cold.startUpProblems,
      startupLines: cold.startupLines,
      ids: [],
      problems: [],
      admitted: [],
      fronts: 0,
      wrote: false,
    });
    expect(damaged.reported).toEqual([expect.stringContaining("could not be read (its list of plugins is not the one written); the next start loads the plugins from their folders, and none of them is used in this session.")]);
    expect(start()).toEqual(cold);
    expect(start()).toEqual({ ...cold, wrote: false });
  });
});
