/**
 * Placeholders and the environment of a hook process (hooks.md §4.1, §5; plugins.md §9):
 * `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` are replaced in the
 * command text, and exported too, so `$CLAUDE_PLUGIN_ROOT` without braces works through the shell.
 * `${user_config.KEY}` is replaced only in exec form (a shell-form hook using it is refused when
 * compiled), because a value pasted into shell text could run as code.
 */
import type { HookOrigin } from "./types.ts";

export interface PlaceholderValues {
  CLAUDE_PROJECT_DIR: string;
  CLAUDE_PLUGIN_ROOT?: string;
  CLAUDE_PLUGIN_DATA?: string;
}

export function placeholderValues(origin: HookOrigin, projectDir: string): PlaceholderValues {
  if (origin.kind !== "plugin") return { CLAUDE_PROJECT_DIR: projectDir };
  return { CLAUDE_PROJECT_DIR: projectDir, CLAUDE_PLUGIN_ROOT: origin.root, CLAUDE_PLUGIN_DATA: origin.dataDir };
}

const BRACED = /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g;
const BARE = /\$(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)(?![A-Za-z0-9_])/g;
const USER_CONFIG = /\$\{user_config\.([A-Za-z0-9_.-]+)\}/g;

export function hasUserConfigPlaceholder(text: string): boolean {
  return /\$\{user_config\./.test(text);
}

/** The text the hook runs. Unknown placeholders stay as written (the shell sees them). */
export function substitute(text: string, values: PlaceholderValues, userConfig?: Readonly<Record<string, string>>): string {
  let out = text.replace(BRACED, (whole, name: keyof PlaceholderValues) => values[name] ?? whole);
  if (userConfig) out = out.replace(USER_CONFIG, (whole, key: string) => userConfig[key] ?? whole);
  return out;
}

/** For checking paths only: also resolves `$CLAUDE_PLUGIN_ROOT`, which the shell would expand. */
export function substituteForCheck(text: string, values: PlaceholderValues): string {
  return substitute(text, values).replace(BARE, (whole, name: keyof PlaceholderValues) => values[name] ?? whole);
}

export interface HookEnvOptions {
  base: Readonly<Record<string, string>>;
  origin: HookOrigin;
  projectDir: string;
  /** Set for SessionStart (and the other env-file events). */
  envFile?: string;
  effort?: string;
}

/** OpenTelemetry exporter settings meant for clew itself must not make every hook export spans. */
function withoutOtel(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith("OTEL_")));
}

export function hookEnvironment(options: HookEnvOptions): Record<string, string> {
  const env = withoutOtel(options.base);
  env.CLAUDECODE = "1";
  env.CLEW = "1";
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  env.CLEW_PROJECT_DIR = options.projectDir;
  if (options.effort !== undefined) env.CLAUDE_EFFORT = options.effort;
  const { origin } = options;
  if (origin.kind === "plugin") {
    env.CLAUDE_PLUGIN_ROOT = origin.root;
    env.CLAUDE_PLUGIN_DATA = origin.dataDir;
    for (const [key, value] of Object.entries(origin.options ?? {})) {
      env[`CLAUDE_PLUGIN_OPTION_${key.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}`] = value;
    }
  } else {
    // Inherited from a parent clew or Claude Code, these would point a non-plugin hook at a stranger's plugin.
    delete env.CLAUDE_PLUGIN_ROOT;
    delete env.CLAUDE_PLUGIN_DATA;
  }
  if (options.envFile !== undefined) env.CLAUDE_ENV_FILE = options.envFile;
  else delete env.CLAUDE_ENV_FILE;
  return env;
}
