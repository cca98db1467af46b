// The plugin-record tests' two halves: real installs into a config folder, and a start of the
// session's plugin loading in a process of its own (test/integration/plugin-record-child.ts), whose
// last output line is what it loaded.
import { join } from "node:path";
import { addMarketplaceFrom } from "../../src/app/plugin-marketplaces.ts";
import { runInstall } from "../../src/app/plugin-install.ts";
import { readEnvironment, type Environment } from "../../src/settings/paths.ts";

const CHILD = join(import.meta.dir, "../integration/plugin-record-child.ts");

/** The environment of a user whose home and clew folder are `configDir`, in `project`. */
export function recordEnvironment(configDir: string, project: string): Environment {
  return readEnvironment({ HOME: configDir, CLEW_CONFIG_DIR: configDir, PATH: process.env.PATH ?? "/usr/bin:/bin" }, project);
}

/** Adds the marketplace in `folder` and installs each of `plugins` from it at user scope; throws on any failure. */
export async function installFrom(env: Environment, project: string, folder: string, plugins: readonly string[]): Promise<string> {
  const added = await addMarketplaceFrom(env, folder);
  if (!added.ok) throw new Error(added.error);
  for (const plugin of plugins) {
    const installed = await runInstall({ env, projectDir: project }, `${plugin}@${added.value.name}`, "user");
    if (!installed.ok) throw new Error(installed.error);
  }
  return added.value.name;
}

/** One start in its own process: `afterLoad` is run by the child once the plugins are loaded. */
export function startInChild<Start>(configDir: string, project: string, afterLoad = "", env: Record<string, string> = {}): Start {
  const run = Bun.spawnSync(["bun", CHILD, configDir, project, afterLoad, JSON.stringify(env)], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`the session side failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString().trim().split("\n").at(-1) ?? "{}") as Start;
}
