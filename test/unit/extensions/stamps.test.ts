// The stamps a scan records (every stat and folder listing it made) against real folders: they
// hold while nothing changed, and any change the scan would see — a file edited in place, added,
// removed or replaced, a skill folder that gains its SKILL.md, a folder that appears — breaks them.
// And a warm start through loadSessionExtensions sees each such change.
import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSessionExtensions, type ExtensionsInput } from "../../../src/app/extensions-setup.ts";
import { scanSource } from "../../../src/extensions/scan.ts";
import { discoverSources } from "../../../src/extensions/sources.ts";
import { stampRecorder, stampsHold, type Stamps } from "../../../src/extensions/stamps.ts";
import type { ComponentSource } from "../../../src/extensions/types.ts";
import { md, tempDir, writeTree } from "./helpers.ts";

function project(): { root: string; sources: ComponentSource[]; home: string } {
  const root = tempDir();
  const home = tempDir();
  writeTree(root, {
    ".claude/skills/alpha/SKILL.md": md(["name: alpha", "description: first"]),
    ".claude/skills/notes/README.md": "not a skill yet",
    ".claude/commands/deploy.md": md(["description: ship it"]),
    ".claude/commands/team/review.md": md(["description: review"]),
    ".claude/agents/helper.md": md(["name: helper", "description: helps"]),
  });
  return { root, home, sources: discoverSources({ cwd: root, userDir: home }) };
}

function stampsOf(sources: readonly ComponentSource[]): Stamps {
  const { recorder, stamps } = stampRecorder();
  for (const source of sources) scanSource(source, recorder);
  return stamps;
}

/** Writes `text` over a file in place and moves its mtime on, as an editor saving it would. */
function editInPlace(path: string, text: string): void {
  const before = statSync(path);
  writeFileSync(path, text);
  const later = before.mtimeMs / 1000 + 5;
  utimesSync(path, later, later);
}

describe("scan stamps", () => {
  test("hold while nothing changed, the folders that do not exist included", () => {
    const { sources } = project();
    const stamps = stampsOf(sources);
    // The user folder and .clew/ do not exist; .claude/'s three folders do.
    expect(stamps.lists.map(([path, names]) => [path.slice(path.indexOf("/.") + 1), names])).toEqual(
      expect.arrayContaining([
        [".claude/skills", "alpha\u0000notes"],
        [".clew/skills", null],
        [".claude/commands", "deploy.md\u0000team"],
      ]),
    );
    expect(stampsHold(stamps)).toBe(true);
    expect(stampsHold(stampsOf(sources))).toBe(true);
  });

  const changes: Record<string, (root: string, home: string) => void> = {
    "a SKILL.md edited in place": (root) => editInPlace(join(root, ".claude/skills/alpha/SKILL.md"), md(["name: alpha", "description: edited"])),
    "an edit that keeps the size": (root) => editInPlace(join(root, ".claude/skills/alpha/SKILL.md"), md(["name: alpha", "description: FIRST"])),
    "a skill added": (root) => writeTree(root, { ".claude/skills/beta/SKILL.md": md(["name: beta", "description: second"]) }),
    "a skill removed": (root) => rmSync(join(root, ".claude/skills/alpha"), { recursive: true }),
    "a folder without a SKILL.md gains one": (root) => writeTree(root, { ".claude/skills/notes/SKILL.md": md(["name: notes", "description: now one"]) }),
    "a command added in a nested folder": (root) => writeTree(root, { ".claude/commands/team/plan.md": md(["description: plan"]) }),
    "a command renamed": (root) => renameSync(join(root, ".claude/commands/deploy.md"), join(root, ".claude/commands/ship.md")),
    "an agent file replaced by another of the same size and mtime": (root) => {
      const path = join(root, ".claude/agents/helper.md");
      const { mtimeMs } = statSync(path);
      const copy = join(root, "helper.tmp");
      writeFileSync(copy, md(["name: helper", "description: HELPS"]));
      utimesSync(copy, mtimeMs / 1000, mtimeMs / 1000);
      renameSync(copy, path);
    },
    "the project's .clew/skills folder made": (root) => writeTree(root, { ".clew/skills/gamma/SKILL.md": md(["name: gamma", "description: third"]) }),
    "the user's commands folder made": (_root, home) => writeTree(home, { "commands/mine.md": md(["description: mine"]) }),
    "a commands folder turned into a link to another": (root) => {
      const elsewhere = tempDir();
      writeTree(elsewhere, { "other.md": md(["description: other"]) });
      rmSync(join(root, ".claude/commands"), { recursive: true });
      symlinkSync(elsewhere, join(root, ".claude/commands"));
    },
  };
  for (const [name, change] of Object.entries(changes)) {
    test(`break on ${name}`, () => {
      const { root, home, sources } = project();
      const stamps = stampsOf(sources);
      change(root, home);
      expect(stampsHold(stamps)).toBe(false);
    });
  }

  // Root lists every folder whatever its mode: there is nothing to tell apart.
  test.skipIf(process.getuid?.() === 0)("a folder that cannot be listed holds while it stays so, and breaks when it can be", () => {
    const { root, sources } = project();
    const skills = join(root, ".claude/skills");
    Bun.spawnSync(["chmod", "000", skills]);
    try {
      const stamps = stampsOf(sources);
      expect(stamps.lists.find(([path]) => path === skills)).toEqual([skills, null, "EACCES"]);
      expect(stampsHold(stamps)).toBe(true);
      Bun.spawnSync(["chmod", "755", skills]);
      expect(stampsHold(stamps)).toBe(false);
    } finally {
      Bun.spawnSync(["chmod", "755", skills]);
    }
  });
});

describe("a warm start sees what changed since the summary", () => {
  const input = (root: string, home: string): ExtensionsInput => ({ cwd: root, projectRoot: undefined, userDir: home, managedDirs: [], addDirs: [], cacheDir: join(home, "cache"), budgetChars: 8_000 });

  test("unchanged: the summary, with no registry built; then each change loads in full and shows", async () => {
    const { root, home } = project();
    const cold = await loadSessionExtensions(input(root, home));
    expect(cold.registry?.peek()).toBeDefined();
    const warm = await loadSessionExtensions(input(root, home));
    expect(warm.registry?.peek()).toBeUndefined();
    expect(warm.catalogue).toBe(cold.catalogue);

    writeTree(root, { ".claude/skills/notes/SKILL.md": md(["name: notes", "description: became a skill"]) });
    const gained = await loadSessionExtensions(input(root, home));
    expect(gained.registry?.peek()).toBeDefined();
    expect(gained.catalogue).toContain("became a skill");

    editInPlace(join(root, ".claude/skills/alpha/SKILL.md"), md(["name: alpha", "description: edited in place"]));
    const edited = await loadSessionExtensions(input(root, home));
    expect(edited.registry?.peek()).toBeDefined();
    expect(edited.catalogue).toContain("edited in place");

    mkdirSync(join(root, ".claude/agents/more"));
    writeTree(root, { ".claude/agents/more/expert.md": md(["name: expert", "description: knows"]) });
    const agents = await loadSessionExtensions(input(root, home));
    expect(agents.registry?.peek()).toBeDefined();
    expect(agents.agents.map((agent) => agent.name)).toEqual(["expert", "helper"]);

    const settled = await loadSessionExtensions(input(root, home));
    expect(settled.registry?.peek()).toBeUndefined();
    expect(settled.agents).toEqual(agents.agents);
  });
});
