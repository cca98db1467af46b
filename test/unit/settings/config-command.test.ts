// `clew config` through the real entry point, in a temp project with a temp config dir.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { layout, type Layout, readFixture } from "./fixture.ts";

const ENTRY = resolve(import.meta.dir, "../../../src/main.ts");

async function clew(space: Layout, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn(["bun", ENTRY, ...args], {
    cwd: space.startDir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: space.homeDir,
      CLEW_CONFIG_DIR: space.configDir,
      CLEW_MANAGED_SETTINGS_DIR: space.managedDir,
      NO_COLOR: "1",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

describe("clew config", () => {
  test("--origins lists every leaf key path with the file or flag that set it", async () => {
    const space = layout("five-layers");
    await clew(space, ["trust"]);
    const run = await clew(space, ["config", "--origins", "--settings", "../cli/cli.json", "--model", "flag-model", "--allowedTools", "Glob"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const managed = join(space.managedDir, "managed-settings.json");
    const project = join(space.startDir, ".clew/settings.json");
    const local = join(space.startDir, ".clew/settings.local.json");
    const cli = join(space.root, "cli/cli.json");
    expect(run.stdout).toBe(
      [
        `permissions.deny[0]        ${managed} (managed)`,
        `permissions.deny[1]        ${managed} (managed)`,
        `permissions.deny[2]        ${project} (project)`,
        `permissions.allow[0]       --allowedTools (cli)`,
        `permissions.allow[1]       ${local} (local)`,
        `permissions.allow[2]       ${project} (project)`,
        `permissions.allow[3]       ~/.clew/settings.json (user)`,
        `permissions.ask[0]         ${cli} (cli)`,
        `permissions.defaultMode    ${project} (project)`,
        `env.ORG                    ${managed} (managed)`,
        `env.SHARED                 ${managed} (managed)`,
        `env.LOCAL_ONLY             ${local} (local)`,
        `env.PROJECT_ONLY           ${project} (project)`,
        `env.USER_ONLY              ~/.clew/settings.json (user)`,
        `cleanupPeriodDays          ${managed} (managed)`,
        `model                      --model (cli)`,
        `verbose                    ${cli} (cli)`,
        `outputStyle                ${local} (local)`,
        `teamSpecificKey.nested[0]  ${project} (project)`,
        `teamSpecificKey.nested[1]  ${project} (project)`,
        `alwaysThinkingEnabled      ~/.clew/settings.json (user)`,
        `language                   ~/.clew/settings.json (user)`,
        `includeCoAuthoredBy        (default)`,
        `autoCompactEnabled         (default)`,
        `autoMemoryEnabled          (default)`,
        "",
      ].join("\n"),
    );
  });

  test("prints the effective settings as JSON and problems on stderr", async () => {
    const space = layout("five-layers");
    space.write("user.json", JSON.stringify({ permissions: { allow: ["Read", 7] } }));
    const run = await clew(space, ["config", "--setting-sources", "user,local"]);
    expect(run.code).toBe(0);
    const settings = JSON.parse(run.stdout) as { permissions: { allow: string[] }; model?: string };
    expect(settings.permissions.allow).toEqual(["Bash(npm test)", "Read"]);
    expect(settings.model).toBeUndefined();
    expect(run.stderr).toBe("warning: ~/.clew/settings.json:1:33: permissions.allow[1] must be a string (got number)\n");
  });

  test("in an untrusted folder the trust warning says how to trust it; --problems lists it on stdout", async () => {
    const space = layout("five-layers");
    const run = await clew(space, ["config", "--problems"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `warning: ${space.startDir}/.clew/settings.json:5:14: this workspace has not been trusted, so permissions.allow from this file is not applied ` +
        `(its deny and ask rules are). To trust it, run: clew trust "${space.startDir}"\n`,
    );
    expect(readFixture("five-layers", "project.json")).toMatchObject({ permissions: { allow: ["Edit(src/**)", "Bash(npm test)"] } });
  });

  test("a file that doesn't parse: exit 1 with file:line:column", async () => {
    const space = layout();
    space.write("project.json", '{\n  "model": "opus",\n}\n');
    const run = await clew(space, ["config"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")[0]).toBe(
      `clew: ${space.startDir}/.clew/settings.json:3:1: invalid JSON: trailing commas are not allowed (settings files are strict JSON)`,
    );
  });

  test("clew trust records the current directory", async () => {
    const space = layout();
    const run = await clew(space, ["trust"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe(`Trusted ${space.startDir} (and everything below it).`);
    expect(existsSync(join(space.configDir, "trust.json"))).toBe(true);
  });
});
