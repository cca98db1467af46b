/**
 * Splits a command line into every simple command it would run, with wrappers (`timeout`,
 * `env`, `sudo`, `xargs`…) peeled off and the scripts of `bash -c`, `eval`, `watch` and
 * `find -exec` split recursively. Whatever cannot be understood becomes a problem, so the
 * caller asks instead of allowing.
 */
import { parseShell } from "./shell-parse.ts";
import type { CommandOrigin, CommandWrapper, RawCommand, ShellRedirect, ShellWord, SimpleCommand, SplitResult } from "./shell-types.ts";
import { findActions, peel } from "./shell-wrappers.ts";

export type { SimpleCommand, SplitResult } from "./shell-types.ts";

export const MAX_COMMAND_LENGTH = 10_000;
/** Nested scripts (`bash -c "eval '…'"`) deeper than this are not followed. */
const MAX_SCRIPT_DEPTH = 6;
/** Wrappers in front of one command (`sudo nice timeout 5 …`) beyond this are not followed. */
const MAX_WRAPPERS = 16;

interface Inherited {
  elevated: boolean;
  exactOnly: boolean;
  depth: number;
  parent?: SimpleCommand;
}

class Splitter {
  readonly result: SplitResult = { commands: [], problems: [] };

  async script(source: string, origin: CommandOrigin, inherited: Inherited): Promise<void> {
    if (inherited.depth > MAX_SCRIPT_DEPTH) {
      this.result.problems.push({ kind: "too-deep", detail: `shell scripts nested more than ${MAX_SCRIPT_DEPTH} levels deep` });
      return;
    }
    const parsed = await parseShell(source, origin);
    if (!parsed.ok) {
      const where = inherited.depth === 0 ? "the command" : "a nested script";
      this.result.problems.push({ kind: "unparseable", detail: `${where} could not be parsed (${parsed.error})` });
      return;
    }
    for (const raw of parsed.commands) await this.command(raw, inherited);
  }

  private async command(raw: RawCommand, inherited: Inherited): Promise<void> {
    let words: ShellWord[] = raw.words;
    const assignments: ShellWord[] = [...raw.assignments];
    const redirects: ShellRedirect[] = [...raw.redirects];
    const wrappers: CommandWrapper[] = [];
    let elevated = inherited.elevated;
    let exactOnly = inherited.exactOnly;
    let appendsArgs = false;
    const emit = (delegates: boolean): SimpleCommand => {
      const command: SimpleCommand = {
        argv: words.map((word) => word.value),
        words,
        assignments: assignments.map((word) => word.raw),
        redirects,
        origin: raw.origin,
        wrappers,
        elevated,
        delegates,
        exactOnly,
        appendsArgs,
      };
      if (inherited.parent) command.parent = inherited.parent;
      this.result.commands.push(command);
      return command;
    };
    for (let layer = 0; layer <= MAX_WRAPPERS; layer++) {
      const name = words[0];
      if (!name) break;
      if (name.dynamic) {
        this.result.problems.push({ kind: "dynamic", detail: `the command name ${name.raw} is only known at run time` });
        break;
      }
      if (layer === MAX_WRAPPERS) {
        this.result.problems.push({ kind: "too-deep", detail: `more than ${MAX_WRAPPERS} wrapper commands in front of ${name.value}` });
        break;
      }
      const peeled = peel(words, redirects);
      if (peeled.kind === "none") break;
      if (peeled.kind === "dynamic-script") {
        emit(true);
        this.result.problems.push({ kind: "dynamic", detail: peeled.detail });
        return;
      }
      if (peeled.kind === "script") {
        exactOnly ||= peeled.exactOnly;
        const outer = emit(true);
        const parent = exactOnly ? { parent: outer } : {};
        // The script's commands are judged on their own; an exact rule for the wrapper also covers them.
        await this.script(peeled.script.value, peeled.origin, { elevated, exactOnly: false, depth: inherited.depth + 1, ...parent });
        return;
      }
      wrappers.push(peeled.wrapper);
      words = peeled.rest;
      redirects.push(...peeled.writes);
      elevated ||= peeled.elevated;
      exactOnly ||= peeled.exactOnly;
      appendsArgs ||= peeled.appendsArgs;
    }
    if (words[0]?.value.replace(/^.*\//, "") === "find") {
      const actions = findActions(words);
      exactOnly ||= actions.mutates;
      const parent = emit(false);
      for (const inner of actions.commands) {
        const command: RawCommand = { words: inner, assignments: [], redirects: [], origin: "find-exec" };
        await this.command(command, { elevated, exactOnly: false, depth: inherited.depth + 1, parent });
      }
      return;
    }
    emit(false);
  }
}

/** Every simple command in `command`, and whatever could not be understood about it. */
export async function splitCommand(command: string): Promise<SplitResult> {
  const splitter = new Splitter();
  if (command.length > MAX_COMMAND_LENGTH) {
    splitter.result.problems.push({ kind: "too-long", detail: `the command is longer than ${MAX_COMMAND_LENGTH} characters` });
  }
  await splitter.script(command, "top", { elevated: false, exactOnly: false, depth: 0 });
  return splitter.result;
}
