/**
 * CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: the processes a session starts for the model's work — Bash
 * commands, hooks, stdio MCP servers — get no credentials of clew's own or of the cloud, so a
 * prompt-injected `echo $ANTHROPIC_API_KEY` has nothing to show. clew itself keeps them (its
 * requests, telemetry and apiKeyHelper need them). GitHub tokens and proxy settings stay: the
 * tools a job runs need those, and a GitHub job's token expires with the job.
 */
const CREDENTIALS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_CUSTOM_HEADERS",
  "ANTHROPIC_FOUNDRY_API_KEY",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_LOGS_HEADERS",
  "OTEL_EXPORTER_OTLP_METRICS_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AZURE_CLIENT_SECRET",
  "AZURE_CLIENT_CERTIFICATE_PATH",
  // GitHub Actions' OIDC request: a job could mint cloud credentials with it.
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
];

/** `env` for a subprocess: without the credentials above when `scrub` is on, else as it is. */
export function subprocessEnv(env: Readonly<Record<string, string>>, scrub: boolean): Record<string, string> {
  const copy = { ...env };
  if (scrub) for (const name of CREDENTIALS) delete copy[name];
  return copy;
}
