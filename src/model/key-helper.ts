/**
 * `apiKeyHelper`: a shell command from settings whose standard output is the credential, for
 * keys that rotate or live in a vault. It runs when the first request needs a key, again once the
 * key is older than CLAUDE_CODE_API_KEY_HELPER_TTL_MS (default five minutes), and once more right
 * away when the API refuses the key (HTTP 401).
 */
import { ApiFailure } from "./types.ts";

const DEFAULT_TTL_MS = 5 * 60_000;
/** A helper that hangs would hold every request: past this it is stopped and the request fails. */
const HELPER_TIMEOUT_MS = 60_000;

export interface KeyHelperOptions {
  command: string;
  /** The settings file that set it, for messages. */
  file: string | undefined;
  cwd: string;
  env: Record<string, string>;
  ttlMs: number | undefined;
}

export class ApiKeyHelper {
  private cached: { key: string; at: number } | undefined;
  private running: Promise<string> | undefined;

  constructor(private readonly options: KeyHelperOptions) {}

  /** The current key: the cached one while it is fresh, else the helper's new answer. */
  async key(): Promise<string> {
    const ttl = this.options.ttlMs ?? DEFAULT_TTL_MS;
    if (this.cached && Date.now() - this.cached.at < ttl) return this.cached.key;
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The API refused the key: the next `key()` asks the helper again. */
  refuse(): void {
    this.cached = undefined;
  }

  private async run(): Promise<string> {
    const where = `apiKeyHelper (${JSON.stringify(this.options.command)}${this.options.file ? ` in ${this.options.file}` : ""})`;
    const child = Bun.spawn(["/bin/sh", "-c", this.options.command], { cwd: this.options.cwd, env: this.options.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => child.kill(), HELPER_TIMEOUT_MS);
    try {
      const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      if (code !== 0) {
        const said = stderr.trim().split("\n")[0] ?? "";
        const why = child.signalCode ? `was stopped after ${HELPER_TIMEOUT_MS / 1000}s` : `exited with ${code}`;
        throw new ApiFailure("authentication_failed", null, `${where} ${why}${said ? `: ${said}` : ""}. Fix the command, or set ANTHROPIC_API_KEY instead.`);
      }
      const key = stdout.trim();
      if (key === "") throw new ApiFailure("authentication_failed", null, `${where} printed no key. It must print the API key on standard output.`);
      this.cached = { key, at: Date.now() };
      return key;
    } finally {
      clearTimeout(timer);
    }
  }
}
