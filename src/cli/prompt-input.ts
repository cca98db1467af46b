/**
 * What the prompt prefixes do: `@path` attaches a file (or a directory listing, or an image), and
 * a pasted image path attaches the image; `!cmd` runs a shell command whose output goes with the
 * next prompt; `#note` appends a line to the project's instruction file. Also Tab completion for
 * slash commands and `@` paths.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, resolve } from "node:path";
import type { Completion } from "../ui/editor.ts";
import { imageAttachment, pastedImagePaths, type PromptBlock } from "./prompt-images.ts";
import { ignoredNames } from "./ignored-names.ts";

const MAX_FILE_BYTES = 256 * 1024;
const MAX_LISTING = 200;
const MAX_SHELL_CHARS = 30_000;

export interface Attachment {
  /** As written after `@`, or the pasted path. */
  mention: string;
  /** The attachment's text: the file's contents, a listing, or the line naming an image. */
  text: string;
  /** The blocks sent with the prompt, ready for the user message: the text, or a line and an image. */
  blocks: PromptBlock[];
  /** One line for the screen: "Attached src/x.ts (120 lines)", "Attached shot.png (1280×720 px, 245.0 KB)". */
  summary: string;
}

export interface MentionResult {
  attachments: Attachment[];
  /** Mentions that named nothing readable. */
  missing: string[];
  /** Mentions a Read deny rule covers: not attached, nothing of them read. */
  denied: string[];
}

/** Whether a Read deny rule covers an absolute path (the session's gate). */
export type ReadDenied = (absPath: string) => boolean;

function readBounded(path: string): { text: string; truncated: boolean } | undefined {
  const size = statSync(path).size;
  const buffer = readFileSync(path);
  const head = buffer.subarray(0, MAX_FILE_BYTES);
  if (head.includes(0)) return undefined;
  return { text: head.toString("utf8"), truncated: size > MAX_FILE_BYTES };
}

function textAttachment(mention: string, text: string, summary: string): Attachment {
  return { mention, text, blocks: [{ type: "text", text }], summary };
}

function attach(mention: string, path: string, cwd: string, imagesSoFar: number, denied: ReadDenied): Attachment | undefined {
  const shown = relative(cwd, path) || ".";
  const stat = statSync(path);
  if (stat.isDirectory()) {
    // Like Glob and Grep: a denied file does not show up in a listing either.
    const entries = readdirSync(path, { withFileTypes: true })
      .filter((entry) => !denied(join(path, entry.name)))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    const listed = entries.slice(0, MAX_LISTING);
    const more = entries.length > MAX_LISTING ? `\n… and ${entries.length - MAX_LISTING} more` : "";
    return textAttachment(mention, `Listing of the directory ${shown} (mentioned by the user as @${mention}):\n${listed.join("\n")}${more}`, `Listed ${shown}/ (${entries.length} entries)`);
  }
  if (!stat.isFile()) return undefined;
  const image = imageAttachment(path, cwd, imagesSoFar);
  if (image) return { mention, ...image };
  if (extname(path).toLowerCase() === ".pdf") {
    // Read sends PDFs as documents, with page ranges and the API's limits; the model opens it there.
    return textAttachment(
      mention,
      `The user mentioned the PDF ${path} (as @${mention}). Read it with the Read tool; a PDF of more than 10 pages needs pages (for example "1-10").`,
      `Mentioned ${shown} (a PDF: the model reads it with Read)`,
    );
  }
  const read = readBounded(path);
  if (!read) return undefined;
  const lines = read.text === "" ? 0 : read.text.split("\n").length - (read.text.endsWith("\n") ? 1 : 0);
  const cut = read.truncated ? `\n(truncated at ${MAX_FILE_BYTES / 1024} KB; Read the rest with offset/limit)` : "";
  return textAttachment(
    mention,
    `Contents of ${path} (mentioned by the user as @${mention}):\n<file path="${path}">\n${read.text}${read.text.endsWith("\n") || read.text === "" ? "" : "\n"}</file>${cut}`,
    `Attached ${shown} (${lines} ${lines === 1 ? "line" : "lines"}${read.truncated ? ", truncated" : ""})`,
  );
}

function imageCount(attachments: readonly Attachment[]): number {
  return attachments.reduce((count, attachment) => count + attachment.blocks.filter((block) => block.type === "image").length, 0);
}

/**
 * Finds `@path` words and reads what they name (trailing punctuation is not part of a path), then
 * image paths pasted or dragged in without `@`. Each attachment's `blocks` go into the user message
 * after the prompt.
 */
export function resolveMentions(prompt: string, cwd: string, denied: ReadDenied = () => false): MentionResult {
  const attachments: Attachment[] = [];
  const missing: string[] = [];
  const refused: string[] = [];
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
    // A deny rule holds for what the user types too: the file's bytes would reach the model all the same.
    if (denied(path)) {
      refused.push(found);
      continue;
    }
    const attachment = attach(found, path, cwd, imageCount(attachments), denied);
    if (attachment) attachments.push(attachment);
    else missing.push(found);
  }
  for (const pasted of pastedImagePaths(prompt)) {
    if (seen.has(pasted) || !isFile(pasted)) continue;
    seen.add(pasted);
    if (denied(pasted)) {
      refused.push(pasted);
      continue;
    }
    const image = imageAttachment(pasted, cwd, imageCount(attachments));
    if (image) attachments.push({ mention: pasted, ...image });
  }
  return { attachments, missing, denied: refused };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
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

export interface CompletionOptions {
  /** Settings `respectGitignore` (default true): the `@` picker leaves out what git ignores. */
  respectGitignore?: boolean;
}

export function completeInput(buffer: string, cursor: number, commands: readonly (string | CommandEntry)[], cwd: string, options: CompletionOptions = {}): Completion | undefined {
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
    const entries = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.name.startsWith(namePart) && (namePart.startsWith(".") || !entry.name.startsWith(".")));
    const ignored = options.respectGitignore === false ? new Set<string>() : ignoredNames(dir, entries.map((entry) => entry.name));
    names = entries
      .filter((entry) => !ignored.has(entry.name))
      .map((entry) => `@${dirPart}${entry.name}${entry.isDirectory() ? "/" : ""}`)
      .sort()
      .slice(0, 50);
  } catch {
    return undefined;
  }
  return { start, end: cursor, candidates: names.length === 1 && !(names[0] ?? "").endsWith("/") ? [`${names[0]} `] : names };
}
