/**
 * Questions that need the terminal to themselves. On a TTY the line editor steps aside while
 * @clack/prompts (or $EDITOR) owns stdin, then takes it back; elsewhere questions are numbered
 * lines answered by the next input line.
 */
import type { Readable, Writable } from "node:stream";
import { askApproval, askApprovalPlain, choose, choosePlain, type ApprovalChoice, type ApprovalView, type Choice } from "../ui/ask.ts";
import type { PromptSource, TtyInput } from "../ui/input.ts";

export interface TerminalControl {
  /** A TTY on both ends: questions use @clack/prompts. */
  readonly interactive: boolean;
  approve(view: ApprovalView): Promise<ApprovalChoice>;
  choose<T extends string>(message: string, choices: Choice<T>[]): Promise<T | undefined>;
  /** Runs `work` (an editor, a prompt library) with the terminal released by the line editor. */
  handOver<T>(work: () => Promise<T>): Promise<T>;
}

export function ttyControl(input: TtyInput, stdin: Readable, stdout: Writable, print: (text: string) => void): TerminalControl {
  const handOver = async <T>(work: () => Promise<T>): Promise<T> => {
    input.suspend();
    try {
      return await work();
    } finally {
      input.resume();
    }
  };
  const io = { input: stdin, output: stdout, print };
  return {
    interactive: true,
    approve: (view) => handOver(() => askApproval(view, io)),
    choose: (message, choices) => handOver(() => choose(message, choices, io)),
    handOver,
  };
}

export function plainControl(input: PromptSource, print: (text: string) => void): TerminalControl {
  const io = { print, readLine: () => input.readLine() };
  return {
    interactive: false,
    approve: (view) => askApprovalPlain(view, io),
    choose: (message, choices) => choosePlain(message, choices, io),
    handOver: (work) => work(),
  };
}
