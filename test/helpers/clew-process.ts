// Runs clew as a real process: the compiled binary when CLEW_BIN is set (as `bun run test`
// does) or dist/clew exists, else the TypeScript entry point through bun.
import { existsSync, mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

export function clewCommand(): string[] {
  const bin = process.env.CLEW_BIN ?? join(ROOT, "dist/clew");
  if (existsSync(bin)) return [bin];
  return ["bun", join(ROOT, "src/main.ts")];
}

export interface ClewRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ClewOptions {
  cwd: string;
  /** ANTHROPIC_BASE_URL of a fake server; a test API key is supplied with it. */
  baseURL?: string;
  configDir: string;
  env?: Record<string, string>;
  stdin?: string;
}

export function clewEnv(options: ClewOptions): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: options.configDir,
    CLEW_CONFIG_DIR: options.configDir,
    NO_COLOR: "1",
    // Keep fault tests quick; real runs use the defaults.
    CLEW_STREAM_IDLE_TIMEOUT_MS: "3000",
  };
  if (options.baseURL) {
    env.ANTHROPIC_BASE_URL = options.baseURL;
    env.ANTHROPIC_API_KEY = "sk-test-fake";
  }
  return { ...env, ...options.env };
}

export function spawnClew(args: string[], options: ClewOptions) {
  return Bun.spawn([...clewCommand(), ...args], {
    cwd: options.cwd,
    env: clewEnv(options),
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
}

export async function runClew(args: string[], options: ClewOptions): Promise<ClewRun> {
  const child = spawnClew(args, options);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

export function tempDirectory(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Every transcript file under a config dir's projects/ folder. */
export function transcripts(configDir: string): string[] {
  const projects = join(configDir, "projects");
  if (!existsSync(projects)) return [];
  return readdirSync(projects).flatMap((project) =>
    readdirSync(join(projects, project))
      .filter((name) => name.endsWith(".jsonl") && name !== "history.jsonl")
      .map((name) => join(projects, project, name)),
  );
}
