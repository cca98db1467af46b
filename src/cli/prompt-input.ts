/**
 * What the prompt prefixes do: `@path` attaches a file (or a directory listing), `!cmd` runs a
 * shell command whose output goes with the next prompt, `#note` appends a line to the project's
 * instruction file. Also Tab completion for slash commands and `@` paths.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Completion } from "../ui/editor.ts";

const MAX_FILE_BYTES = 256 * 1024;
const MAX_LISTING = 200;
const MAX_SHELL_CHARS = 30_000;

export interface Attachment {
  /** As written after `@`. */
  mention: string;
  /** The text block sent with the prompt. */
  text: string;
  /** One line for the screen: "Attached src/x.ts (120 lines)". */
  summary: string;
}

export interface MentionResult {
  attachments: Attachment[];
  /** Mentions that named nothing readable. */
  missing: string[];
}

function readBounded(path: string): { text: string; truncated: boolean } | undefined {
  const size = statSync(path).size;
  const buffer = readFileSync(path);
  const head = buffer.subarray(0, MAX_FILE_BYTES);
  if (head.includes(0)) return undefined;
  return { text: head.toString("utf8"), truncated: size > MAX_FILE_BYTES };
}

function attach(mention: string, path: string, cwd: string): Attachment | undefined {
  const shown = relative(cwd, path) || ".";
  const stat = statSync(path);
  if (stat.isDirectory()) {
    const entries = readdirSync(path, { withFileTypes: true })
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    const listed = entries.slice(0, MAX_LISTING);
    const more = entries.length > MAX_LISTING ? `\n… and ${entries.length - MAX_LISTING} more` : "";
    return {
      mention,
      text: `Listing of the directory ${shown} (mentioned by the user as @${mention}):\n${listed.join("\n")}${more}`,
      summary: `Listed ${shown}/ (${entries.length} entries)`,
    };
  }
  if (!stat.isFile()) return undefined;
  const read = readBounded(path);
  if (!read) return undefined;
  const lines = read.text === "" ? 0 : read.text.split("\n").length - (read.text.endsWith("\n") ? 1 : 0);
  const cut = read.truncated ? `\n(truncated at ${MAX_FILE_BYTES / 1024} KB; Read the rest with offset/limit)` : "";
  return {
    mention,
    text: `Contents of ${path} (mentioned by the user as @${mention}):\n<file path="${path}">\n${read.text}${read.text.endsWith("\n") || read.text === "" ? "" : "\n"}</file>${cut}`,
    summary: `Attached ${shown} (${lines} ${lines === 1 ? "line" : "lines"}${read.truncated ? ", truncated" : ""})`,
  };
}

/** Finds `@path` words and reads what they name; trailing punctuation is not part of a path. */
export function resolveMentions(prompt: string, cwd: string): MentionResult {
  const attachments: Attachment[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const match of prompt.matchAll(/(?:^|\s)@("[^"]+"|[^\s"]+)/g)) {
    const raw = (match[1] ?? "").replace(/^"|"$/g, "");
    const candidates = [raw, raw.replace(/[.,;:!?)\]]+$/, "")];
    const found = candidates.find((candidate) => candidate !== "" && existsSync(resolve(cwd, candidate)));
    if (found === undefined) {
      if (raw.includes("/") || raw.includes(".")) missing.push(raw);
      continue;
    }
    const path = resolve(cwd, found);
    if (seen.has(path)) continue;
    seen.add(path);
    const attachment = attach(found, path, cwd);
    if (attachment) attachments.push(attachment);
    else missing.push(found);
  }
  return { attachments, missing };
}

export interface ShellRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  interrupted: boolean;
}

function bound(text: string): string {
  return text.length > MAX_SHELL_CHARS ? `${text.slice(0, MAX_SHELL_CHARS)}\n… (output truncated)` : text;
}

/** `!cmd`: runs through bash in the session's directory; Esc/Ctrl+C (the signal) kills it. */
export async function runShellCommand(command: string, cwd: string, env: Record<string, string>, signal: AbortSignal): Promise<ShellRun> {
  const child = Bun.spawn(["bash", "-c", command], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: true });
  const kill = (): void => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  };
  signal.addEventListener("abort", kill, { once: true });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  signal.removeEventListener("abort", kill);
  return { exitCode: signal.aborted ? null : exitCode, stdout: bound(stdout), stderr: bound(stderr), interrupted: signal.aborted };
}

/** The context block a `!cmd` adds to the next prompt (Claude Code's bash-input/stdout tags). */
export function shellContext(command: string, run: ShellRun): string {
  const parts = [`<bash-input>${command}</bash-input>`, `<bash-stdout>${run.stdout.replace(/\n$/, "")}</bash-stdout>`];
  parts.push(`<bash-stderr>${run.stderr.replace(/\n$/, "")}${run.interrupted ? "\n(interrupted by the user)" : ""}</bash-stderr>`);
  return `The user ran a shell command in the session directory:\n${parts.join("\n")}`;
}

/** `#note`: AGENTS.md in the working directory, else an existing CLAUDE.md, else a new AGENTS.md. */
export function appendNote(cwd: string, note: string): string {
  const agents = join(cwd, "AGENTS.md");
  const claude = join(cwd, "CLAUDE.md");
  const target = existsSync(agents) || !existsSync(claude) ? agents : claude;
  let prefix = "";
  if (existsSync(target)) {
    const current = readFileSync(target, "utf8");
    if (current !== "" && !current.endsWith("\n")) prefix = "\n";
  }
  appendFileSync(target, `${prefix}- ${note}\n`);
  return target;
}

/** Tab completion: `/command` as the first word, `@path` anywhere. */
/** A command offered by Tab: its name, and for listing its description and argument hint. */
export interface CommandEntry {
  name: string;
  description?: string;
  argumentHint?: string;
}

export function completeInput(buffer: string, cursor: number, commands: readonly (string | CommandEntry)[], cwd: string): Completion | undefined {
  const before = buffer.slice(0, cursor);
  const start = Math.max(before.lastIndexOf(" "), before.lastIndexOf("\n")) + 1;
  const word = before.slice(start);
  if (start === 0 && word.startsWith("/")) {
    const entries = commands.map((entry): CommandEntry => (typeof entry === "string" ? { name: entry } : entry)).filter((entry) => `/${entry.name}`.startsWith(word));
    const candidates = entries.map((entry) => `/${entry.name} `);
    if (!entries.some((entry) => entry.description || entry.argumentHint)) return { start, end: cursor, candidates };
    const width = Math.max(...entries.map((entry) => entry.name.length + (entry.argumentHint ? entry.argumentHint.length + 1 : 0))) + 3;
    const labels = entries.map((entry) => `/${entry.name}${entry.argumentHint ? ` ${entry.argumentHint}` : ""}`.padEnd(width) + (entry.description?.split("\n")[0] ?? ""));
    return { start, end: cursor, candidates, labels };
  }
  if (!word.startsWith("@")) return undefined;
  const partial = word.slice(1);
  const dirPart = partial.includes("/") ? partial.slice(0, partial.lastIndexOf("/") + 1) : "";
  const namePart = partial.slice(dirPart.length);
  const dir = resolve(cwd, dirPart === "" ? "." : dirPart);
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.name.startsWith(namePart) && (namePart.startsWith(".") || !entry.name.startsWith(".")))
      .map((entry) => `@${dirPart}${entry.name}${entry.isDirectory() ? "/" : ""}`)
      .sort()
      .slice(0, 50);
  } catch {
    return undefined;
  }
  return { start, end: cursor, candidates: names.length === 1 && !(names[0] ?? "").endsWith("/") ? [`${names[0]} `] : names };
}
