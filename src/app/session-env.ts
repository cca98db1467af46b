/**
 * Small facts and adapters the composition root derives from the environment: whether the start
 * directory is in a git repository, tool limits from env vars, the beta header, spilling of
 * over-long tool output into the session's folder.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Environment } from "../settings/paths.ts";
import { defaultToolLimits, type ToolLimits } from "../tools/types.ts";

export function isGitRepo(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return true;
    if (dirname(current) === current) return false;
  }
}

export function toolLimits(env: Environment): ToolLimits {
  return {
    ...defaultToolLimits,
    bashDefaultTimeoutMs: env.bashDefaultTimeoutMs ?? defaultToolLimits.bashDefaultTimeoutMs,
    bashMaxTimeoutMs: env.bashMaxTimeoutMs ?? defaultToolLimits.bashMaxTimeoutMs,
    bashMaxOutputChars: Math.min(env.bashMaxOutputChars ?? defaultToolLimits.bashMaxOutputChars, 150_000),
    readMaxTokens: env.readMaxTokens ?? defaultToolLimits.readMaxTokens,
  };
}

/** Adds betas to the `anthropic-beta` header the user may already set. */
export function withBetas(headers: Record<string, string>, betas: readonly string[]): Record<string, string> {
  if (betas.length === 0) return headers;
  const key = Object.keys(headers).find((name) => name.toLowerCase() === "anthropic-beta") ?? "anthropic-beta";
  const all = [...new Set([...(headers[key] ?? "").split(",").map((beta) => beta.trim()).filter(Boolean), ...betas])];
  return { ...headers, [key]: all.join(",") };
}

export function spillTo(spillDir: string) {
  return (toolUseId: string, text: string): string => {
    const path = join(spillDir, `${toolUseId}.txt`);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
}
