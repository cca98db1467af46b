// Turns a folder of fixture layers (test/fixtures/settings/<case>/) into a real layout in a temp
// dir: managed dir, home with ~/.clew, a project with .clew/ and .claude/, and a --settings file.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { loadSettings, type LoadSettingsOptions } from "../../../src/settings/load.ts";
import type { CliSettingsInput } from "../../../src/settings/sources.ts";
import type { LoadedSettings, SettingsOrigin } from "../../../src/settings/types.ts";

export const FIXTURES = resolve(import.meta.dir, "../../fixtures/settings");

/** Where each fixture file goes, relative to the temp root. */
const PLACES: Record<string, string> = {
  "managed.json": "managed/managed-settings.json",
  "user.json": "home/.clew/settings.json",
  "project.json": "work/.clew/settings.json",
  "project-claude.json": "work/.claude/settings.json",
  "local.json": "work/.clew/settings.local.json",
  "local-claude.json": "work/.claude/settings.local.json",
  "cli.json": "cli/cli.json",
};

export interface Layout {
  root: string;
  homeDir: string;
  configDir: string;
  startDir: string;
  managedDir: string;
  /** Writes (or overwrites) a layer by its fixture name, e.g. `project.json`. */
  write(layer: string, text: string): string;
  path(layer: string): string;
  load(options?: Partial<LoadSettingsOptions> & { cli?: CliSettingsInput }): LoadedSettings;
  /** `scope:relative/file` or `scope:--flag` or `default`, as written in origins.json. */
  label(origin: SettingsOrigin): string;
}

export function layout(fixtureCase?: string): Layout {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "clew-settings-")));
  const homeDir = join(root, "home");
  const configDir = join(homeDir, ".clew");
  const startDir = join(root, "work");
  const managedDir = join(root, "managed");
  for (const dir of [configDir, startDir, managedDir]) mkdirSync(dir, { recursive: true });
  const path = (layer: string): string => join(root, PLACES[layer] ?? layer);
  const write = (layer: string, text: string): string => {
    const target = path(layer);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    return target;
  };
  if (fixtureCase) {
    const source = join(FIXTURES, fixtureCase);
    for (const name of Object.keys(PLACES)) {
      if (existsSync(join(source, name))) write(name, readFileSync(join(source, name), "utf8"));
    }
    if (existsSync(join(source, "managed"))) cpSync(join(source, "managed"), managedDir, { recursive: true });
  }
  return {
    root, homeDir, configDir, startDir, managedDir, write, path,
    load: (options = {}) =>
      loadSettings({ startDir, configDir, homeDir, managedDirs: [managedDir], trusted: true, ...options }),
    label: (origin) => {
      if (origin.scope === "default") return "default";
      return `${origin.scope}:${origin.file ? relative(root, origin.file) : origin.flag}`;
    },
  };
}

export function readFixture(fixtureCase: string, name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, fixtureCase, name), "utf8"));
}

export function originLabels(space: Layout, loaded: LoadedSettings): Record<string, string> {
  return Object.fromEntries(Object.entries(loaded.origins).map(([path, origin]) => [path, space.label(origin)]));
}
