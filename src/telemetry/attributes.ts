/**
 * The attributes every metric and event carries (Claude Code's "standard attributes") and the
 * resource that describes the process. Account attributes (`organization.id`,
 * `user.account_uuid`, `user.email`) exist only for a Claude account signed in with OAuth; clew
 * authenticates with an API key or bearer token, so — as the Monitoring page says of direct API
 * keys — only `user.id` and `session.id` identify the user. OTEL_RESOURCE_ATTRIBUTES adds the rest.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { arch, platform, release } from "node:os";
import { join } from "node:path";
import type { TelemetryConfig, Variables } from "./config.ts";

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

export interface SessionFacts {
  sessionId: string;
  version: string;
  /** Where clew keeps user state: the anonymous `user.id` lives there. */
  configDir: string;
}

const USER_ID_FILE = "telemetry-user-id";

/**
 * A random identifier made on first use and kept in the config directory: it ties one
 * installation's sessions together without naming anyone (delete the file for a new one).
 */
export function anonymousUserId(configDir: string): string {
  const path = join(configDir, USER_ID_FILE);
  try {
    const stored = readFileSync(path, "utf8").trim();
    if (/^[0-9a-f]{64}$/.test(stored)) return stored;
  } catch {
    // Not made yet: made below.
  }
  const id = crypto.randomUUID().replaceAll("-", "") + crypto.randomUUID().replaceAll("-", "");
  try {
    mkdirSync(configDir, { recursive: true });
    writeFileSync(path, `${id}\n`, { mode: 0o600 });
  } catch {
    // A read-only config directory still gets telemetry, with an id for this session only.
  }
  return id;
}

/** `terminal.type`, when the environment names one (TERM_PROGRAM, tmux, screen, else TERM). */
export function terminalType(vars: Variables): string | undefined {
  const program = vars.TERM_PROGRAM?.trim();
  if (program) return program;
  if (vars.TMUX) return "tmux";
  if (vars.STY) return "screen";
  const term = vars.TERM?.trim();
  return term && term !== "dumb" ? term : undefined;
}

export interface StandardAttributes {
  metric: Attributes;
  event: Attributes;
}

/** The standard attributes' names: OTEL_RESOURCE_ATTRIBUTES cannot set them, even where clew leaves one out. */
const STANDARD_KEYS: ReadonlySet<string> = new Set([
  "session.id", "app.version", "app.entrypoint", "organization.id", "user.account_uuid", "user.account_id", "user.id", "user.email", "terminal.type",
]);

/** Built-in keys first; OTEL_RESOURCE_ATTRIBUTES keys never override them (as in Claude Code). */
export function standardAttributes(config: TelemetryConfig, facts: SessionFacts, vars: Variables, userId: string): StandardAttributes {
  const custom: Attributes = config.include.resourceAttributes
    ? Object.fromEntries(Object.entries(config.resourceAttributes).filter(([key]) => !STANDARD_KEYS.has(key)))
    : {};
  const shared: Attributes = { "user.id": userId };
  if (config.include.version) shared["app.version"] = facts.version;
  if (config.include.entrypoint) shared["app.entrypoint"] = vars.CLAUDE_CODE_ENTRYPOINT?.trim() || "cli";
  const terminal = terminalType(vars);
  if (terminal) shared["terminal.type"] = terminal;
  const metric: Attributes = { ...custom, ...shared };
  if (config.include.sessionId) metric["session.id"] = facts.sessionId;
  // Events are per occurrence already: the session id costs them no cardinality, so they always carry it.
  return { metric, event: { ...custom, ...shared, "session.id": facts.sessionId } };
}

const ARCH_NAMES: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "x86", arm: "arm32" };

/** The resource of every export: service, OS and architecture, plus OTEL_RESOURCE_ATTRIBUTES. */
export function resourceAttributes(config: TelemetryConfig, version: string): Attributes {
  const os = platform();
  return {
    ...config.resourceAttributes,
    "service.name": config.serviceName,
    "service.version": version,
    "os.type": os === "win32" ? "windows" : os,
    "os.version": release(),
    "host.arch": ARCH_NAMES[arch()] ?? arch(),
  };
}
