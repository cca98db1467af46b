/**
 * One interactive session's state and actions: the open Session, the running turn (and how to
 * stop it), what the next prompt carries (shell output, an interruption), and everything a
 * slash command may do. Events of every turn go through the one Renderer.
 */
import { openSession } from "../app/bootstrap.ts";
import type { ResumeRequest } from "../app/resume.ts";
import type { Session } from "../app/session.ts";
import type { ContentBlockParam } from "../model/types.ts";
import type { PermissionMode } from "../permissions/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { Choice } from "../ui/ask.ts";
import type { LiveLine } from "../ui/live.ts";
import { Renderer } from "../ui/renderer.ts";
import { replayLines } from "../ui/replay.ts";
import type { Theme } from "../ui/theme.ts";
import { ClewError } from "../util/errors.ts";
import type { CliOptions } from "./args.ts";
import { createApprovalPort } from "./approval.ts";
import { sessionFlags } from "./session-flags.ts";
import type { TerminalControl } from "./terminal-control.ts";
import { appendNote, resolveMentions, runShellCommand, shellContext } from "./prompt-input.ts";
import { COMMANDS, parseCommand, type SlashCommand, type SlashContext } from "./slash/index.ts";
import type { RewindContext } from "./slash/rewind.ts";
import { prefillNextPrompt } from "../ui/input.ts";

const INTERRUPTED_NOTE = "[Request interrupted by user]";
const MODE_CYCLE: PermissionMode[] = ["default", "acceptEdits", "plan"];

export const MODE_LABELS: Record<PermissionMode, string> = {
  default: "default mode",
  acceptEdits: "⏵⏵ accept edits on",
  plan: "⏸ plan mode on",
  bypassPermissions: "⏵⏵ bypass permissions on",
  dontAsk: "dontAsk mode on (anything that needs approval is denied)",
};

export interface ReplDeps {
  env: Environment;
  version: string;
  options: CliOptions;
  theme: Theme;
  live: LiveLine;
  terminal: TerminalControl;
}

export class Repl implements SlashContext, RewindContext {
  private current: Session | undefined;
  private turn: AbortController | undefined;
  private readonly pendingContext: string[] = [];
  private interrupted = false;
  private exitRequested = false;
  private renderer: Renderer;
  startMode: PermissionMode = "default";
  readonly commands: readonly SlashCommand[] = COMMANDS;

  constructor(private readonly deps: ReplDeps) {
    this.renderer = this.newRenderer(deps.env.cwd);
  }

  get session(): Session {
    if (!this.current) throw new ClewError("usage", "No session is open.");
    return this.current;
  }

  get env(): Environment {
    return this.deps.env;
  }

  get theme(): Theme {
    return this.deps.theme;
  }

  get interactive(): boolean {
    return this.deps.terminal.interactive;
  }

  get exiting(): boolean {
    return this.exitRequested;
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** Opens the first session (resumed with -c / -r); errors propagate to the caller. */
  async start(resume: ResumeRequest | undefined): Promise<void> {
    this.current = await this.open(resume);
    this.startMode = this.current.permissionMode;
  }

  print = (text: string): void => {
    this.renderer.flush();
    this.deps.live.print(text);
  };

  error = (text: string): void => {
    this.print(this.theme.red(text));
  };

  /** Esc / Ctrl+C while something runs. */
  interrupt(): void {
    this.turn?.abort(new Error("Interrupted by the user"));
  }

  exit(): void {
    this.exitRequested = true;
  }

  /** One submitted input line: a command, `!shell`, `#note`, or a prompt for the model. */
  async submit(text: string): Promise<void> {
    const trimmed = text.trim();
    if (trimmed === "") return;
    const parsed = trimmed.startsWith("/") ? parseCommand(trimmed) : undefined;
    if (parsed) {
      if (!parsed.command) {
        // A skill or custom command: the session renders it and sends it like a typed prompt.
        const name = trimmed.slice(1).split(/\s/)[0] ?? "";
        if (this.session.userInvocables().some((item) => item.name === name || item.name.toLowerCase() === parsed.name)) return this.runPrompt(text);
        this.error(`Unknown command /${parsed.name}. Type /help for the list.`);
        return;
      }
      try {
        await parsed.command.run(parsed.args, this);
      } catch (error) {
        this.error(error instanceof Error ? error.message : String(error));
      }
      return;
    }
    if (trimmed.startsWith("!")) return this.shell(trimmed.slice(1).trim());
    if (trimmed.startsWith("#")) return this.note(trimmed.replace(/^#+\s*/, ""));
    await this.runPrompt(text);
  }

  async runPrompt(prompt: string): Promise<void> {
    const cwd = this.session.info.cwd;
    const mentions = resolveMentions(prompt, cwd, (path) => this.session.readDenied(path));
    const blocks: ContentBlockParam[] = [];
    if (this.interrupted) blocks.push({ type: "text", text: INTERRUPTED_NOTE });
    blocks.push({ type: "text", text: prompt });
    for (const context of this.pendingContext.splice(0)) blocks.push({ type: "text", text: context });
    for (const attachment of mentions.attachments) blocks.push(...attachment.blocks);
    for (const attachment of mentions.attachments) this.print(this.theme.dim(`  ⎿ ${attachment.summary}`));
    for (const missing of mentions.missing) this.print(this.theme.dim(`  ⎿ @${missing}: no such file; sent as written`));
    for (const denied of mentions.denied) this.print(this.theme.dim(`  ⎿ @${denied}: not attached, a Read deny rule covers it (clew config --origins shows where)`));
    this.interrupted = false;
    const outcome = await this.running("Thinking", (signal) => this.session.runTurn(blocks, this.renderer.handle, signal));
    if (outcome?.reason === "aborted_streaming" || outcome?.reason === "aborted_tools") this.interrupted = true;
  }

  async compact(instructions: string | undefined): Promise<void> {
    const result = await this.running("Compacting conversation", (signal) => this.session.compact(instructions, this.renderer.handle, signal));
    if (!result) return;
    if (result.ok) this.print(this.theme.dim("Conversation compacted."));
    else this.error(`Could not compact: ${result.reason ?? "unknown reason"}`);
  }

  /** `/rewind` → summarise from here. */
  async summariseFrom(prompt: number, instructions: string | undefined): Promise<void> {
    const result = await this.running("Summarising", (signal) => this.session.summariseFrom(prompt, instructions, this.renderer.handle, signal));
    if (!result) return;
    if (result.ok) this.print(this.theme.dim(`Summarised the conversation from prompt ${prompt} on; what came before is kept as it was.`));
    else this.error(`Could not summarise: ${result.reason ?? "unknown reason"}`);
  }

  /** A rewound conversation gives the prompt back for editing. */
  prefillPrompt(text: string): void {
    if (this.deps.terminal.interactive) prefillNextPrompt(text);
  }

  async switchSession(resume?: ResumeRequest): Promise<boolean> {
    let next: Session;
    try {
      next = await this.open(resume);
    } catch (error) {
      this.error(error instanceof Error ? error.message : String(error));
      return false;
    }
    const previous = this.current;
    next.setPermissionMode(previous?.permissionMode ?? next.permissionMode);
    this.current = next;
    this.renderer = this.newRenderer(next.info.cwd);
    this.pendingContext.length = 0;
    this.interrupted = false;
    await previous?.close();
    if (resume) this.replay();
    return true;
  }

  choose<T extends string>(message: string, choices: Choice<T>[]): Promise<T | undefined> {
    return this.deps.terminal.choose(message, choices);
  }

  setMode(mode: PermissionMode): void {
    this.session.setPermissionMode(mode);
    this.print(this.theme.dim(`Permission mode: ${mode}${mode === "default" ? "" : ` (${MODE_LABELS[mode]})`}`));
  }

  /** Shift+Tab: default → acceptEdits → plan (→ bypassPermissions when started in it) → default. */
  cycleMode(): PermissionMode {
    const cycle = this.startMode === "bypassPermissions" ? [...MODE_CYCLE, "bypassPermissions" as const] : MODE_CYCLE;
    const index = cycle.indexOf(this.session.permissionMode);
    const next = cycle[(index + 1) % cycle.length] ?? "default";
    this.session.setPermissionMode(next);
    return next;
  }

  openEditor(path: string): Promise<number | undefined> {
    const editor = this.env.childEnv.VISUAL ?? this.env.childEnv.EDITOR;
    if (!editor) return Promise.resolve(undefined);
    return this.deps.terminal.handOver(async () => {
      const child = Bun.spawn(["sh", "-c", `${editor} "$1"`, "editor", path], { stdio: ["inherit", "inherit", "inherit"], env: this.env.childEnv });
      return await child.exited;
    });
  }

  async close(): Promise<void> {
    this.renderer.flush();
    await this.current?.close();
  }

  private async shell(command: string): Promise<void> {
    if (command === "") return this.error("Type a command after !, e.g. !git status");
    const cwd = this.session.info.cwd;
    const run = await this.running("Running", (signal) => runShellCommand(command, cwd, this.env.childEnv, signal));
    if (!run) return;
    const output = `${run.stdout}${run.stderr}`.replace(/\n+$/, "");
    if (output !== "") this.print(output);
    const status = run.interrupted ? "interrupted" : `exit ${run.exitCode ?? "unknown"}`;
    this.print(run.exitCode === 0 ? this.theme.dim(`  ⎿ ${status} · output goes with your next prompt`) : this.theme.red(`  ⎿ ${status}`));
    this.pendingContext.push(shellContext(command, run));
  }

  private note(note: string): void {
    if (note === "") return this.error("Type the note after #, e.g. # run tests with bun test");
    try {
      const file = appendNote(this.session.info.cwd, note);
      this.print(this.theme.dim(`  ⎿ Noted in ${file} (applies from the next session)`));
    } catch (error) {
      this.error(`Could not write the note: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Runs `work` with the live line shown and Esc/Ctrl+C wired to its abort signal. */
  private async running<T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    const controller = new AbortController();
    this.turn = controller;
    this.deps.live.start({ label });
    try {
      return await work(controller.signal);
    } catch (error) {
      this.renderer.flush();
      this.deps.live.stop();
      this.error(error instanceof ClewError && error.hint ? `${error.message}\n${error.hint}` : error instanceof Error ? error.message : String(error));
      return undefined;
    } finally {
      this.renderer.flush();
      this.deps.live.stop();
      this.turn = undefined;
    }
  }

  private async open(resume: ResumeRequest | undefined): Promise<Session> {
    const { options, env, version } = this.deps;
    const reports: string[] = [];
    let opened = false;
    const ask = createApprovalPort({
      session: () => this.current,
      theme: this.theme,
      live: this.deps.live,
      renderer: () => this.renderer,
      ask: (view) => this.deps.terminal.approve(view),
      stopTurn: () => this.interrupt(),
      turnStopped: () => this.turn?.signal.aborted === true,
      print: this.print,
      verbose: this.deps.options.verbose,
    });
    const session = await openSession({
      ...sessionFlags(options, env, version),
      resume,
      // --fork-session applies to the session clew starts with, not to a later /resume.
      fork: resume !== undefined && this.current === undefined && options.forkSession,
      sessionId: resume || this.current ? undefined : options.sessionId,
      ask,
      approveHooks: async ({ files, commands }) => {
        this.print(this.theme.yellow(`This folder is not trusted, and ${files.join(", ")} defines hooks that run commands on your machine:`));
        for (const command of commands.slice(0, 10)) this.print(`  ${command}`);
        const answer = await this.choose("Run these hooks?", [
          { value: "yes", label: "Yes, for this session" },
          { value: "always", label: "Yes, and don't ask again for these hooks (a changed hook asks again)" },
          { value: "no", label: "No" },
        ]);
        return answer ?? "no";
      },
      consentRollout: async (items) => {
        this.print(this.theme.bold("This project asks for plugins that are not installed yet:"));
        for (const item of items) {
          const at = item.commit ? this.theme.dim(` @ ${item.commit.slice(0, 12)}`) : "";
          this.print(`  ${item.kind === "marketplace" ? "marketplace" : "plugin"} ${item.id}${at}${item.detail ? this.theme.dim(` — ${item.detail.slice(0, 100)}`) : ""}`);
          if (item.runs.length > 0) this.print(this.theme.yellow(`      can run: ${item.runs.join("; ")}`));
          if (item.error) this.print(this.theme.red(`      ${item.error}`));
        }
        const answer = await this.choose("Install them (at project scope, recorded in clew.lock)?", [
          { value: "yes", label: "Yes, install everything listed" },
          { value: "no", label: "No (clew plugin sync installs them later)" },
        ]);
        return answer === "yes";
      },
      approveMcp: async ({ name, origin, summary, untrusted }) => {
        this.print(this.theme.yellow(`${untrusted ? "This folder is not trusted, and " : ""}${origin} defines the MCP server "${name}", which would start: ${summary}`));
        const answer = await this.choose(`Use the MCP server "${name}"?`, [
          { value: "yes", label: "Yes, for this session" },
          { value: "always", label: "Yes, and don't ask again for this server (a changed definition asks again)" },
          { value: "no", label: "No, and don't ask again (clew mcp reset-project-choices undoes it)" },
        ]);
        return answer ?? "no";
      },
      keepDenyOnError: true,
      notify: (line) => this.print(this.theme.dim(line)),
      // Collected while the session opens, printed as they come after that (a checkpoint that failed at a prompt).
      report: (line) => (opened ? this.print(this.theme.yellow(line)) : reports.push(line)),
    });
    opened = true;
    for (const line of reports) this.print(this.theme.yellow(line));
    session.warmExtensions();
    return session;
  }

  /** The conversation so far, condensed: prompts, the model's text, one line per tool call. */
  replay(): void {
    const session = this.session;
    const lines = replayLines(session.messages, this.theme, session.info.cwd, this.deps.live.width());
    if (lines.length > 0) this.print(lines.join("\n"));
    this.print(this.theme.dim(`\n── resumed ${session.info.sessionId} · ${session.messages.length} messages ──`));
  }

  private newRenderer(cwd: string): Renderer {
    return new Renderer(this.deps.live, this.theme, {
      cwd,
      verbose: this.deps.options.verbose,
      now: () => Date.now(),
      costOf: (usage) => this.current?.costFor(usage) ?? 0,
    });
  }
}
