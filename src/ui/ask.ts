/**
 * Questions to the user: the tool-approval prompt and a pick-one list (sessions, models). On a
 * terminal they use @clack/prompts (imported on first use: it is heavy); elsewhere they print
 * numbered choices and read one answer line.
 */
import type { Readable, Writable } from "node:stream";

export interface ApprovalView {
  /** "Run this command?", "Make this edit to src/x.ts?". */
  question: string;
  /** The exact command, or the edit as -/+ lines (already styled). */
  detail: string[];
  /** "Yes, and don't ask again for Bash(npm test *) in /repo"; absent when nothing narrow can be offered. */
  alwaysLabel?: string;
}

export type ApprovalChoice = { kind: "yes" } | { kind: "always" } | { kind: "no"; reason: string } | { kind: "cancel" };

export interface Choice<T extends string> {
  value: T;
  label: string;
  hint?: string;
}

/** A terminal owned for the duration of one question. */
export interface PromptIO {
  input: Readable;
  output: Writable;
  print(text: string): void;
}

/** Plain mode: the question as text, the answer from the next input line. */
export interface PlainIO {
  print(text: string): void;
  readLine(): Promise<string | undefined>;
}

const NO_LABEL = "No, and tell the model why";
const REASON_QUESTION = "What should the model do instead? (Enter to just stop)";

function showView(view: ApprovalView, print: (text: string) => void): void {
  print(view.detail.map((line) => `  ${line}`).join("\n"));
}

export async function askApproval(view: ApprovalView, io: PromptIO): Promise<ApprovalChoice> {
  const clack = await import("@clack/prompts");
  showView(view, io.print);
  const options: Array<{ value: "yes" | "always" | "no"; label: string }> = [{ value: "yes", label: "Yes" }];
  if (view.alwaysLabel) options.push({ value: "always", label: view.alwaysLabel });
  options.push({ value: "no", label: NO_LABEL });
  const answer = await clack.select({ message: view.question, options, input: io.input, output: io.output });
  if (clack.isCancel(answer)) return { kind: "cancel" };
  if (answer !== "no") return { kind: answer };
  const reason = await clack.text({ message: REASON_QUESTION, input: io.input, output: io.output });
  if (clack.isCancel(reason)) return { kind: "cancel" };
  return { kind: "no", reason: (reason ?? "").trim() };
}

export async function askApprovalPlain(view: ApprovalView, io: PlainIO): Promise<ApprovalChoice> {
  showView(view, io.print);
  const lines = [view.question, "  1. Yes"];
  if (view.alwaysLabel) lines.push(`  2. ${view.alwaysLabel}`);
  lines.push(`  3. ${NO_LABEL}`);
  io.print(lines.join("\n"));
  for (;;) {
    const line = await io.readLine();
    if (line === undefined) return { kind: "cancel" };
    const answer = line.trim().toLowerCase();
    if (answer === "1" || answer === "y" || answer === "yes") return { kind: "yes" };
    if (view.alwaysLabel && (answer === "2" || answer === "a" || answer === "always")) return { kind: "always" };
    if (answer === "3" || answer === "n" || answer === "no") {
      io.print(REASON_QUESTION);
      return { kind: "no", reason: ((await io.readLine()) ?? "").trim() };
    }
    io.print(`Answer 1${view.alwaysLabel ? ", 2" : ""} or 3.`);
  }
}

export async function choose<T extends string>(message: string, choices: Choice<T>[], io: PromptIO): Promise<T | undefined> {
  const clack = await import("@clack/prompts");
  const options = choices.map((choice) => ({ value: choice.value, label: choice.label, ...(choice.hint ? { hint: choice.hint } : {}) }));
  // The Option type is conditional on the value type; a string-valued list satisfies it.
  const answer = await clack.select<T>({ message, options: options as Parameters<typeof clack.select<T>>[0]["options"], maxItems: 10, input: io.input, output: io.output });
  return clack.isCancel(answer) ? undefined : answer;
}

export async function choosePlain<T extends string>(message: string, choices: Choice<T>[], io: PlainIO): Promise<T | undefined> {
  io.print([message, ...choices.map((choice, i) => `  ${i + 1}. ${choice.label}${choice.hint ? ` (${choice.hint})` : ""}`)].join("\n"));
  const line = await io.readLine();
  const index = Number(line?.trim()) - 1;
  return choices[index]?.value;
}
