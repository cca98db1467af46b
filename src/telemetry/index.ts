/**
 * Telemetry for one session: off unless CLAUDE_CODE_ENABLE_TELEMETRY=1 (or CLEW_ENABLE_TELEMETRY=1).
 * Off, this module is all that runs: no @opentelemetry module is loaded, nothing touches the
 * network, and the session's recorder is handed back unchanged. On, the OpenTelemetry adapter is
 * imported, the sink watches every event the session records, and the session's `close()` exports
 * what is pending before it resolves, so a `clew -p` run delivers before it exits.
 */
import type { AgentEvent, Emit } from "../loop/events.ts";
import type { TokenUsage } from "../model/types.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { readTelemetryConfig, telemetryEnabled, type Variables } from "./config.ts";

export interface TelemetryStart {
  /** The process environment (the Environment's `childEnv`). */
  processEnv: Readonly<Record<string, string>>;
  /** The merged settings: their `env` may switch telemetry on, except from a project's files (see `telemetryVariables`). */
  settings: Pick<LoadedSettings, "settings" | "origins">;
  sessionId: string;
  version: string;
  configDir: string;
  /** The main conversation's model now. */
  model: () => string;
  /** The effort level its requests carry now (`output_config.effort`), if any. */
  effort: () => string | undefined;
  resume: "continue" | "id" | undefined;
  costUSD: (model: string, usage: TokenUsage) => number;
  /** One line for the user (stderr). */
  report: (line: string) => void;
}

export interface SessionTelemetry {
  /** The session's recorder with the telemetry sink in front of it (unchanged when telemetry is off). */
  observe(recorder: Emit | undefined): Emit | undefined;
  /** The session, whose `close()` now also exports what is pending (within a bound) before it resolves. */
  closing<T extends { close: (...args: never[]) => Promise<void> }>(session: T): T;
}

const OFF: SessionTelemetry = {
  observe: (recorder) => recorder,
  closing: (session) => session,
};

const TELEMETRY_KEY = /^(?:OTEL_|CLAUDE_CODE_ENABLE_TELEMETRY$|CLEW_ENABLE_TELEMETRY$)/;

/**
 * The variables telemetry reads: the process environment, overlaid with settings `env`. A
 * repository's own settings (project and local files) cannot switch telemetry on or point it at
 * a collector — that would let a cloned folder send a session's activity anywhere — so their
 * telemetry variables are skipped, and said once. User, managed and `--settings` values apply.
 */
export function telemetryVariables(processEnv: Readonly<Record<string, string>>, settings: TelemetryStart["settings"], report: (line: string) => void): Variables {
  const vars: Record<string, string> = { ...processEnv };
  const skipped: string[] = [];
  for (const [key, value] of Object.entries(settings.settings.env)) {
    const origin = settings.origins[`env.${key}`] ?? settings.origins[`env[${JSON.stringify(key)}]`];
    if (TELEMETRY_KEY.test(key) && (origin?.scope === "project" || origin?.scope === "local")) skipped.push(key);
    else vars[key] = value;
  }
  if (skipped.length > 0 && telemetryEnabled(vars)) {
    report(`clew: telemetry: ${skipped.join(", ")} from the project's settings ${skipped.length === 1 ? "was" : "were"} ignored; set telemetry variables in user or managed settings, or in the environment.`);
  }
  return vars;
}

export async function startTelemetry(start: TelemetryStart): Promise<SessionTelemetry> {
  const vars = telemetryVariables(start.processEnv, start.settings, start.report);
  if (!telemetryEnabled(vars)) return OFF;
  const { config, notes } = readTelemetryConfig(vars);
  for (const note of notes) start.report(`clew: telemetry: ${note}`);
  if (!config || (config.metrics.length === 0 && config.logs.length === 0)) return OFF;

  const [{ openExport }, { anonymousUserId, resourceAttributes, standardAttributes }, { TelemetrySink }] = await Promise.all([
    // The binary carries it as one compressed bundle (scripts/cold-modules.ts), unpacked only here.
    import("./otel-sdk.ts"),
    import("./attributes.ts"),
    import("./sink.ts"),
  ]);
  const exported = openExport(config, resourceAttributes(config, start.version), start.version, (line) => start.report(`clew: ${line}`));
  const userId = anonymousUserId(start.configDir);
  const sink = new TelemetrySink(exported, {
    standard: standardAttributes(config, start, vars, userId),
    logUserPrompts: config.logUserPrompts,
    logAssistantResponses: config.logAssistantResponses,
    logToolDetails: config.logToolDetails,
    model: start.model,
    effort: start.effort,
    startType: start.resume === "continue" ? "continue" : start.resume === "id" ? "resume" : "fresh",
    costUSD: start.costUSD,
    now: () => performance.now(),
    clock: () => new Date(),
    newId: () => crypto.randomUUID(),
  });
  sink.start();
  let failed = false;
  const watch = (event: AgentEvent): void => {
    if (failed) return;
    try {
      sink.handle(event);
    } catch (error) {
      // Telemetry must never break a session: one report, then it stands aside.
      failed = true;
      start.report(`clew: telemetry stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let shutdown: Promise<void> | undefined;
  return {
    observe: (recorder) => (event) => {
      watch(event);
      recorder?.(event);
    },
    closing: (session) => {
      const close = session.close.bind(session);
      Object.defineProperty(session, "close", {
        value: async (...args: never[]): Promise<void> => {
          try {
            await close(...args);
          } finally {
            shutdown ??= exported.shutdown();
            await shutdown;
          }
        },
      });
      return session;
    },
  };
}
