/**
 * `clew` without -p: the line-oriented interactive session. Output is appended to the
 * scrollback; only the prompt being edited and one status line are redrawn, and only on a
 * terminal. Piped stdin is read line by line; non-TTY output gets no colour and no control codes.
 */
import type { ResumeRequest } from "../app/resume.ts";
import { StatusLine, statusLineBlocked, statusLineState } from "../app/status-line.ts";
import { projectStateDir, type Environment } from "../settings/paths.ts";
import { LineEditor } from "../ui/editor.ts";
import { wrapItems } from "../ui/fit.ts";
import { PlainInput, TtyInput, type PromptSource } from "../ui/input.ts";
import type { Key } from "../ui/keys.ts";
import { LiveLine } from "../ui/live.ts";
import type { Terminal } from "../ui/terminal.ts";
import { colorEnabled, createTheme, type Theme } from "../ui/theme.ts";
import type { CliOptions } from "./args.ts";
import { appendHistory, historyPath, loadHistory } from "./history.ts";
import { completeInput } from "./prompt-input.ts";
import { MODE_LABELS, Repl } from "./repl.ts";
import { commandNames } from "./slash/index.ts";
import { resumeCommand } from "./slash/resume.ts";
import { isTerminal } from "./stdio.ts";
import { plainControl, ttyControl, type TerminalControl } from "./terminal-control.ts";

/** How long "press Ctrl+C again to exit" stays armed. */
const EXIT_ARM_MS = 3000;
/** How often the terminal is checked for a hang-up nobody was told about. */
const TERMINAL_CHECK_MS = 1000;

/** `plain`: a dumb terminal or a screen reader — treated as no terminal at all: plain lines, nothing redrawn. */
function processTerminal(plain: boolean): Terminal {
  const out = process.stdout;
  const isTTY = out.isTTY === true && !plain;
  return {
    isTTY,
    // Raw mode may turn off output newline translation; on a TTY every line ends in \r\n.
    write: (text) => {
      out.write(isTTY ? text.replace(/\r?\n/g, "\r\n") : text);
    },
    // A pseudo-terminal nobody sized reports 0 columns.
    columns: () => out.columns || 80,
  };
}

function resumeRequest(options: CliOptions): ResumeRequest | undefined {
  if (options.continue) return { kind: "continue" };
  if (typeof options.resume === "string") return { kind: "id", id: options.resume };
  return undefined;
}

/** What the prompt can do, shown under it until the first prompt is sent. */
const HINTS = "/help for help · !cmd runs a shell command · @path attaches a file · #note adds to AGENTS.md · shift+tab cycles the mode";

/** The first line, fitted to the terminal; without a keyboard the hints follow it. */
function banner(repl: Repl, theme: Theme, width: number | undefined, withHints: boolean): string {
  const { info } = repl.session;
  const mode = repl.session.permissionMode;
  const items = [`${theme.cyan("✻")} ${theme.bold("clew")} ${info.version}`, info.model, info.cwd, ...(mode === "default" ? [] : [mode])];
  const first = width === undefined ? items.join(" · ") : wrapItems(items, width).join("\n");
  return withHints ? `${first}\n${theme.dim(`  ${HINTS}`)}` : first;
}

export async function runInteractive(options: CliOptions, env: Environment, version: string): Promise<number> {
  const stdin = process.stdin;
  const term = processTerminal(env.plainTerminal);
  const keyboard = stdin.isTTY === true && term.isTTY;
  const theme = createTheme(colorEnabled(term.isTTY, env.noColor));
  const live = new LiveLine(term, theme, () => Date.now(), keyboard ? "esc to interrupt" : "ctrl+c to interrupt");
  const history = loadHistory(historyPath(projectStateDir(env.configDir, env.cwd)));
  let armedUntil = 0;
  let repl: Repl | undefined;

  let sentPrompt = false;
  const footer = (): string[] => {
    const parts: string[] = [];
    const mode = repl?.session.permissionMode ?? "default";
    if (mode !== "default") parts.push(`${MODE_LABELS[mode]} (shift+tab to cycle)`);
    if (Date.now() < armedUntil) parts.push("Press Ctrl+C again to exit");
    // Under the prompt rather than in the scrollback: redrawn, so it fits after a resize too.
    const lines = parts.length > 0 ? [parts.join(" · ")] : [];
    return sentPrompt || !repl ? lines : [...lines, HINTS];
  };
  const editor = new LineEditor(term, theme, {
    prompt: theme.bold("> "),
    continuation: "  ",
    history,
    complete: (buffer, cursor) =>
      completeInput(buffer, cursor, [...commandNames(), ...(repl?.session.userInvocables() ?? [])], env.cwd, { respectGitignore: repl?.session.settings.settings.respectGitignore !== false }),
    footer,
    status: () => statusLine?.current() ?? [],
  });
  let statusLine: StatusLine | undefined;
  const print = (text: string): void => live.print(text);
  let input: PromptSource;
  let control: TerminalControl;
  let tty: TtyInput | undefined;
  if (keyboard) {
    tty = new TtyInput(stdin, term, editor);
    input = tty;
    control = ttyControl(tty, stdin, process.stdout, print);
  } else {
    // A person at a dumb terminal or a screen reader: the terminal echoes the typing, clew shows where to type.
    input = env.plainTerminal && stdin.isTTY === true ? new PlainInput(stdin, undefined, () => term.write("> ")) : new PlainInput(stdin, (text) => term.write(`${text}\n`));
    control = plainControl(input, print);
  }

  // The terminal may go away at any moment, the session still opening included: before there is
  // a session to close, exit at once; later `terminalGone` ends it properly. The watchdog catches a
  // hang-up whose SIGHUP or end-of-input went unseen (a process left spinning on a dead terminal).
  let terminalGone = (): void => process.exit(129);
  const onSighup = (): void => terminalGone();
  process.on("SIGHUP", onSighup);
  const watchdog = keyboard ? setInterval(() => (isTerminal(0) ? undefined : terminalGone()), TERMINAL_CHECK_MS) : undefined;
  watchdog?.unref();
  if (tty) tty.onGone = () => terminalGone();

  // Raw mode from the start: keys typed while the session opens are kept as type-ahead.
  tty?.start();
  const session = new Repl({ env, version, options, theme, live, terminal: control });
  const resume = resumeRequest(options);
  try {
    await session.start(resume);
  } catch (error) {
    input.close();
    throw error;
  }
  repl = session;
  print(banner(session, theme, live.width(), !keyboard));
  const announcement = announcementOf(session.session.settings.settings.companyAnnouncements);
  if (announcement) print(theme.dim(announcement));
  statusLine = startStatusLine(session, env, term, () => editor.redraw(), print, theme);
  if (resume) session.replay();

  if (tty) {
    tty.onShiftTab = () => {
      session.cycleMode();
      statusLine?.update();
    };
    tty.busyKey = (key: Key): boolean => {
      if (key.kind !== "key") return false;
      if (key.name === "escape" || key.name === "ctrlC") {
        session.interrupt();
        return true;
      }
      if (key.name === "shiftTab") {
        const mode = session.cycleMode();
        statusLine?.update();
        print(theme.dim(`Permission mode: ${mode}`));
        return true;
      }
      return false;
    };
  }

  let exitCode = 0;
  const stop = (code: number): void => {
    exitCode = code;
    session.exit();
    session.interrupt();
    input.close();
  };
  const onSigint = (): void => {
    // Ctrl+C arrives as a key on a raw terminal; this is piped input or a `kill -INT`.
    if (session.busy) session.interrupt();
    else stop(130);
  };
  const onSigterm = (): void => stop(143);
  let closingSince: number | undefined;
  terminalGone = (): void => {
    // Still here well after the first notice (the watchdog calls again): stop waiting for cleanup.
    if (closingSince !== undefined) {
      if (Date.now() - closingSince > 3_000) process.exit(129);
      return;
    }
    closingSince = Date.now();
    stop(129);
    // The terminal is gone: writes to it may never complete, so don't let cleanup hang.
    setTimeout(() => process.exit(129), 2_000).unref();
  };
  const onResize = (): void => {
    live.refresh();
    editor.redraw();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  process.stdout.on("resize", onResize);

  try {
    if (options.resume === true) await resumeCommand.run("", session);
    if (options.prompt) {
      sentPrompt = true;
      print(`${theme.bold(">")} ${options.prompt}`);
      await session.submit(options.prompt);
    }
    const statePath = historyPath(projectStateDir(env.configDir, env.cwd));
    let gap = true;
    while (!session.exiting) {
      // A blank line before each new prompt; not when the same prompt is shown again.
      if (keyboard && gap) term.write("\n");
      gap = true;
      const event = await input.read();
      if (event.kind === "eof" || session.exiting) break;
      if (event.kind === "interrupt") {
        gap = false;
        if (Date.now() < armedUntil) break;
        armedUntil = Date.now() + EXIT_ARM_MS;
        setTimeout(() => editor.redraw(), EXIT_ARM_MS + 50);
        continue;
      }
      armedUntil = 0;
      if (event.text.trim() === "") {
        gap = false;
        continue;
      }
      sentPrompt = true;
      if (!env.skipPromptHistory) appendHistory(statePath, event.text, new Date());
      await session.submit(event.text);
      statusLine?.update();
    }
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
    process.off("SIGHUP", onSighup);
    if (watchdog) clearInterval(watchdog);
    process.stdout.off("resize", onResize);
    input.close();
    statusLine?.stop();
    live.stop();
    const { info } = session.session;
    if (info.transcriptPath && session.session.messages.length > 0) print(theme.dim(`\nResume this conversation with: clew -r ${info.sessionId}`));
    await session.close();
  }
  return exitCode;
}

/** The `statusLine` setting's runner, first run now; or a line saying why it does not run. */
function startStatusLine(repl: Repl, env: Environment, term: Terminal, redraw: () => void, print: (text: string) => void, theme: Theme): StatusLine | undefined {
  const session = repl.session;
  const config = session.settings.settings.statusLine;
  if (!config) return undefined;
  const blocked = statusLineBlocked(session.settings, env.cwd);
  if (blocked) {
    print(theme.dim(`statusLine is not run: ${blocked}`));
    return undefined;
  }
  const startedAt = Date.now();
  const line = new StatusLine(config, {
    cwd: env.cwd,
    env: env.childEnv,
    columns: () => term.columns(),
    rows: () => process.stdout.rows ?? 24,
    state: () => statusLineState(session, startedAt, Date.now()),
    changed: redraw,
  });
  line.update();
  return line;
}

/** `companyAnnouncements`: one of them, chosen at random when there are several (as Claude Code does). */
function announcementOf(value: unknown): string | undefined {
  const texts = Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item.trim() !== "") : [];
  return texts.length === 0 ? undefined : texts[Math.floor(Math.random() * texts.length)];
}
