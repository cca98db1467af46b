// Drives the compiled binary in a real terminal: a tmux server on a private socket, one pane of a
// fixed size running clew with an explicit environment, keys sent with send-keys, the screen read
// with capture-pane. Waits poll the screen with a deadline that only keeps a broken build from
// hanging the suite; a timeout fails with the screen as it was.
import { afterEach, setDefaultTimeout } from "bun:test";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAnthropic, textOf, type FakeServer, type Json, type ScriptStep } from "../fake-anthropic/index.ts";
import { clewCommand, tempDirectory } from "./clew-process.ts";

export const hasTmux = Bun.which("tmux") !== null;

const EXIT_MARK = "[clew exited with status ";

let counter = 0;

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface TerminalOptions {
  cwd: string;
  configDir: string;
  /** ANTHROPIC_BASE_URL of a fake server (a test key is supplied with it). */
  baseURL?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Omit NO_COLOR (colour on); default true. */
  noColor?: boolean;
  width?: number;
  height?: number;
  /** Every byte the program writes, appended to this file (tmux pipe-pane). */
  rawLog?: string;
}

export class TmuxTerminal {
  private constructor(
    private readonly socket: string,
    readonly rawLog: string | undefined,
  ) {}

  static start(options: TerminalOptions): TmuxTerminal {
    counter += 1;
    const socket = `clew-test-${process.pid}-${counter}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.configDir,
      CLEW_CONFIG_DIR: options.configDir,
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      CLEW_STREAM_IDLE_TIMEOUT_MS: "5000",
      ...(options.noColor === false ? {} : { NO_COLOR: "1" }),
      ...(options.baseURL ? { ANTHROPIC_BASE_URL: options.baseURL, ANTHROPIC_API_KEY: "sk-test-fake" } : {}),
      ...options.env,
    };
    const command = ["env", "-i", ...Object.entries(env).map(([key, value]) => `${key}=${value}`), ...clewCommand(), ...(options.args ?? [])];
    // A shell runs clew and prints its exit status: tmux 3.3 sometimes leaves an exited pane
    // process unreaped (its status never recorded), while the shell always waits for its child.
    const shell = `${command.map(quote).join(" ")}; echo "${EXIT_MARK}$?]"`;
    const terminal = new TmuxTerminal(socket, options.rawLog);
    if (options.rawLog) appendFileSync(options.rawLog, "");
    terminal.tmux(
      "start-server", ";",
      "set-option", "-g", "remain-on-exit", "on", ";",
      "new-session", "-d", "-s", "main", "-x", String(options.width ?? 120), "-y", String(options.height ?? 40), "-c", options.cwd, shell,
      ...(options.rawLog ? [";", "pipe-pane", "-t", "main", `cat >> ${quote(options.rawLog)}`] : []),
    );
    return terminal;
  }

  /** Named keys (Enter, Escape, Down, C-c, BTab) or plain words, as tmux send-keys takes them. */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "main", ...keys);
  }

  /** Literal text, no key names. */
  type(text: string): void {
    this.tmux("send-keys", "-t", "main", "-l", text);
  }

  /** Pastes text the way a terminal does (bracketed, when the program asked for it). */
  paste(text: string): void {
    this.tmux("set-buffer", "-b", "clew-test", "--", text);
    this.tmux("paste-buffer", "-p", "-d", "-b", "clew-test", "-t", "main");
  }

  /** The visible screen plus scrollback, wrapped lines joined. */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "main").replace(/\n+$/, "\n");
  }

  /** The same with colour attributes as escape sequences (capture-pane -e). */
  styledScreen(): string {
    return this.tmux("capture-pane", "-p", "-e", "-J", "-S", "-", "-t", "main");
  }

  async waitFor(expected: string | RegExp | ((screen: string) => boolean), what?: string, deadlineMs = 25_000): Promise<string> {
    const test = typeof expected === "function" ? expected : (screen: string) => (typeof expected === "string" ? screen.includes(expected) : expected.test(screen));
    const started = Date.now();
    for (;;) {
      const screen = this.screen();
      if (test(screen)) return screen;
      if (Date.now() - started > deadlineMs) {
        throw new Error(`timed out waiting for ${what ?? String(expected)}; the screen was:\n${screen}`);
      }
      await Bun.sleep(40);
    }
  }

  /** Text after the last occurrence of `marker` (to look at what followed one prompt). */
  after(marker: string): string {
    const screen = this.screen();
    const at = screen.lastIndexOf(marker);
    return at < 0 ? "" : screen.slice(at + marker.length);
  }

  /** The exit status once the program has ended. */
  async exitCode(deadlineMs = 15_000): Promise<number> {
    const screen = await this.waitFor((text) => text.includes(EXIT_MARK), "the program to exit", deadlineMs);
    const at = screen.lastIndexOf(EXIT_MARK) + EXIT_MARK.length;
    return Number(screen.slice(at, screen.indexOf("]", at)));
  }

  raw(): string {
    return this.rawLog && existsSync(this.rawLog) ? readFileSync(this.rawLog, "utf8") : "";
  }

  kill(): void {
    Bun.spawnSync(["tmux", "-L", this.socket, "kill-server"], { stdout: "ignore", stderr: "ignore" });
  }

  private tmux(...args: string[]): string {
    const result = Bun.spawnSync(["tmux", "-L", this.socket, "-f", "/dev/null", ...args], { stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`tmux ${args.join(" ")} failed: ${result.stderr.toString()}`);
    return result.stdout.toString();
  }
}

/** A file path inside a test directory for the raw byte log. */
export function rawLogPath(dir: string): string {
  return join(dir, "terminal.raw");
}

/**
 * Per-file setup for terminal tests: fake servers and terminals made through it are closed after
 * each test.
 */
export function terminalHarness() {
  // bunfig's timeout is not honoured by every bun release; terminal tests wait on real processes.
  setDefaultTimeout(90_000);
  const servers: FakeServer[] = [];
  const terminals: TmuxTerminal[] = [];
  afterEach(async () => {
    for (const terminal of terminals.splice(0)) terminal.kill();
    for (const server of servers.splice(0)) await server.close();
  });
  return {
    async fake(script: ScriptStep[], eventDelayMs = 0): Promise<FakeServer> {
      const server = await startFakeAnthropic({ script, eventDelayMs });
      servers.push(server);
      return server;
    },
    open(options: TerminalOptions): TmuxTerminal {
      const terminal = TmuxTerminal.start(options);
      terminals.push(terminal);
      return terminal;
    },
    workspace(): { dir: string; configDir: string } {
      return { dir: tempDirectory("clew-ws-"), configDir: tempDirectory("clew-config-") };
    },
  };
}

/** Text of the last user message a fake received. */
export function lastUserMessageText(server: FakeServer): string {
  const request = server.requests[server.requests.length - 1];
  const messages = (request?.body.messages ?? []) as Json[];
  const last = messages[messages.length - 1] as { content?: Json } | undefined;
  return textOf(last?.content);
}
