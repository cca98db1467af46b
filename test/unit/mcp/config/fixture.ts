// A real layout for MCP configuration tests: a config dir with clew.json, a repository with
// `.mcp.json` files at several levels, and a managed directory.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadMcpConfig, type McpConfig, type McpConfigInput } from "../../../../src/mcp/config/load.ts";

export interface McpSpace {
  root: string;
  configDir: string;
  repo: string;
  /** The start directory, inside the repository. */
  cwd: string;
  managedDir: string;
  write(path: string, value: unknown): string;
  load(overrides?: Partial<McpConfigInput>): McpConfig;
}

export function mcpSpace(): McpSpace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "clew-mcp-")));
  const configDir = join(root, "home", ".clew");
  const repo = join(root, "repo");
  const cwd = join(repo, "app");
  const managedDir = join(root, "managed");
  for (const dir of [configDir, join(repo, ".git"), cwd, managedDir]) mkdirSync(dir, { recursive: true });
  const write = (path: string, value: unknown): string => {
    const file = path.startsWith("/") ? path : join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
    return file;
  };
  const load = (overrides: Partial<McpConfigInput> = {}): McpConfig =>
    loadMcpConfig({
      cwd,
      projectRoot: repo,
      configDir,
      managedDirs: [managedDir],
      cliConfigs: [],
      strict: false,
      env: {},
      settings: {},
      trusted: true,
      ...overrides,
    });
  return { root, configDir, repo, cwd, managedDir, write, load };
}

export function stdio(command: string, ...args: string[]): Record<string, unknown> {
  return { command, args };
}
