/**
 * `${VAR}` and `${VAR:-default}` in server definitions (spec §2.3). A variable with no value and
 * no default keeps its literal text — the server still loads — and is reported, so `mcp list`
 * and the session can say which variable to set.
 */
import type { McpServerConfig } from "../types.ts";

const REFERENCE = /\$\{([^}]+)\}/g;

export interface Expansion {
  value: string;
  missing: string[];
}

export function expandString(text: string, env: Readonly<Record<string, string>>): Expansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (literal, body: string) => {
    const split = body.indexOf(":-");
    const name = split === -1 ? body : body.slice(0, split);
    const fallback = split === -1 ? undefined : body.slice(split + 2);
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return literal;
  });
  return { value, missing };
}

function expandRecord(record: Record<string, string>, expand: (text: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expand(value)]));
}

/** Expands the fields §2.3 names (command, args, env values, url, header values); the rest stay as written. */
export function expandConfig(config: McpServerConfig, env: Readonly<Record<string, string>>): { config: McpServerConfig; missing: string[] } {
  const missing = new Set<string>();
  const expand = (text: string): string => {
    const result = expandString(text, env);
    for (const name of result.missing) missing.add(name);
    return result.value;
  };
  const expanded: McpServerConfig =
    config.type === "stdio"
      ? { ...config, command: expand(config.command), args: config.args.map(expand), env: expandRecord(config.env, expand) }
      : { ...config, url: expand(config.url), headers: expandRecord(config.headers, expand) };
  return { config: expanded, missing: [...missing] };
}
