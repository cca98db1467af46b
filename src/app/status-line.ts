/**
 * The `statusLine` setting: a command run through the shell with the session's state as JSON on
 * stdin, whose output is shown under the prompt while the user types (spec 3.1). It runs again
 * after each turn, on a permission-mode change and every `refreshInterval` seconds; updates
 * within 300 ms are one run, and a run still going when the next one starts is stopped. It obeys
 * the hook policy (`disableAllHooks`, `allowManagedHooksOnly`), and one from the shared project
 * file runs only in a trusted folder, as hooks do.
 */
import type { StatusLineSettings } from "../settings/schema/settings.ts";
import type { LoadedSettings } from "../settings/types.ts";
import type { Session } from "./session.ts";

const DEBOUNCE_MS = 300;
/** A status line that has not printed by then is stopped: the prompt never waits for it. */
const TIMEOUT_MS = 5_000;
const MAX_LINES = 8;

export interface StatusLineHost {
  cwd: string;
  env: Readonly<Record<string, string>>;
  columns(): number;
  rows(): number;
  /** The session's state when the run starts (the JSON the command reads). */
  state(): Record<string, unknown>;
  /** The lines changed: draw them again. */
  changed(): void;
}

/** Why this session's statusLine does not run, or undefined when it does (or none is set). */
export function statusLineBlocked(loaded: LoadedSettings, projectDir: string): string | undefined {
  const origin = loaded.origins["statusLine.command"];
  if (!origin) return undefined;
  const managed = origin.scope === "managed";
  const settings = loaded.settings;
  const disable = settings.disableAllHooks === true;
  const disableOrigin = loaded.origins.disableAllHooks?.scope;
  if (disable && (disableOrigin === "managed" || !managed)) return "disableAllHooks is set";
  if (settings.allowManagedHooksOnly === true && !managed) return "managed settings allow only managed hooks (allowManagedHooksOnly)";
  if (origin.scope === "project" && !loaded.trusted) return `this folder is not trusted. To run it, run: clew trust ${JSON.stringify(projectDir)}`;
  return undefined;
}

export class StatusLine {
  private lines: readonly string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refresh: ReturnType<typeof setInterval> | undefined;
  private running: { kill(): void } | undefined;
  private generation = 0;
  private stopped = false;

  constructor(
    private readonly config: Pick<StatusLineSettings, "command" | "padding" | "refreshInterval">,
    private readonly host: StatusLineHost,
  ) {
    if (config.refreshInterval !== undefined) {
      this.refresh = setInterval(() => this.update(), config.refreshInterval * 1000);
      this.refresh.unref?.();
    }
  }

  /** What to draw under the prompt now (the last run's output). */
  current(): readonly string[] {
    const pad = " ".repeat(Math.max(0, this.config.padding ?? 0));
    return pad ? this.lines.map((line) => `${pad}${line}`) : this.lines;
  }

  /** Something the status line shows may have changed: run it again shortly. */
  update(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), DEBOUNCE_MS);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.refresh) clearInterval(this.refresh);
    this.running?.kill();
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    this.running?.kill();
    const generation = ++this.generation;
    let child: ReturnType<typeof Bun.spawn<"pipe", "pipe", "ignore">>;
    try {
      child = Bun.spawn(["/bin/sh", "-c", this.config.command], {
        cwd: this.host.cwd,
        env: { ...this.host.env, COLUMNS: String(this.host.columns()), LINES: String(this.host.rows()) },
        stdin: "pipe",
        stdout: "pipe",
        stderr: "ignore",
      });
    } catch {
      return;
    }
    this.running = child;
    const killer = setTimeout(() => child.kill(), TIMEOUT_MS);
    try {
      child.stdin.write(JSON.stringify(this.host.state()));
      await child.stdin.end();
    } catch {
      // A command that does not read its input closes the pipe early; its output still counts.
    }
    const text = await new Response(child.stdout).text().catch(() => "");
    const code = await child.exited;
    clearTimeout(killer);
    if (this.running === child) this.running = undefined;
    // A newer run (or the end of the session) supersedes this one; a failed run keeps the last lines.
    if (generation !== this.generation || this.stopped || code !== 0) return;
    const lines = text.replace(/\n+$/, "").split("\n").slice(0, MAX_LINES);
    const next = lines.length === 1 && lines[0] === "" ? [] : lines;
    if (next.join("\n") === this.lines.join("\n")) return;
    this.lines = next;
    this.host.changed();
  }
}

/** The JSON a status line command reads (Claude Code's fields that clew has; absent ones left out). */
export function statusLineState(session: Session, startedAt: number, now: number): Record<string, unknown> {
  const info = session.info;
  const usage = session.usage;
  const context = session.contextUsage();
  const used = context.lastRequestTokens ?? 0;
  const percent = context.windowTokens > 0 ? Math.round((used / context.windowTokens) * 100) : 0;
  return {
    session_id: info.sessionId,
    ...(info.transcriptPath ? { transcript_path: info.transcriptPath } : {}),
    cwd: info.cwd,
    version: info.version,
    model: { id: info.model, display_name: displayName(info.model) },
    workspace: { current_dir: info.cwd, project_dir: info.cwd, added_dirs: [] },
    output_style: { name: info.outputStyle },
    permission_mode: session.permissionMode,
    cost: { total_cost_usd: session.costUSD, total_duration_ms: Math.round(now - startedAt) },
    context_window: {
      total_input_tokens: usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
      total_output_tokens: usage.outputTokens,
      context_window_size: context.windowTokens,
      used_percentage: percent,
      remaining_percentage: 100 - percent,
    },
    exceeds_200k_tokens: used > 200_000,
  };
}

/** "Opus" for claude-opus-5-5, as Claude Code names its models; another id as it is. */
function displayName(model: string): string {
  const family = /^claude-([a-z]+)-/.exec(model)?.[1];
  return family ? `${family[0]?.toUpperCase() ?? ""}${family.slice(1)}` : model;
}
