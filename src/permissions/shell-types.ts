/**
 * What the shell splitter hands to the Bash permission rules: every simple command a command
 * line would run, however deeply it is nested, plus markers for whatever could not be understood.
 */

/** One shell word after quote removal. */
export interface ShellWord {
  /** The value the command receives (quotes removed, escapes decoded). */
  value: string;
  /** The word exactly as written in the source. */
  raw: string;
  /** Contains a parameter expansion, substitution, glob, brace expansion or arithmetic: its value is only known at run time. */
  dynamic: boolean;
  /** Starts with an unquoted `~` (tilde expansion). */
  tilde: boolean;
}

export type RedirectOp = ">" | ">>" | "<" | "<>" | "<&" | ">&" | ">|" | "<<" | "<<-" | "<<<" | "&>" | "&>>";

export interface ShellRedirect {
  op: RedirectOp;
  /** The file descriptor written before the operator (`2` in `2>x`), if any. */
  fd?: string;
  /** The file (or descriptor for `>&`/`<&`); a heredoc body for `<<`/`<<-`. */
  target: ShellWord;
}

export type CommandOrigin =
  | "top"
  | "substitution"
  | "process-substitution"
  | "function"
  | "shell-c"
  | "shell-stdin"
  | "eval"
  | "find-exec"
  | "exec-wrapper";

/** A wrapper stripped from in front of the effective command (`timeout 5`, `sudo -u x`, `xargs -0`). */
export interface CommandWrapper {
  argv: string[];
  raw: string[];
  /** Stripped before matching allow rules (`timeout`, `nice`, bare `xargs`, …); other wrappers stay part of the text. */
  transparent: boolean;
}

/** A command as the parser sees it, before wrappers are interpreted. */
export interface RawCommand {
  words: ShellWord[];
  /** Leading `NAME=value` words, raw. */
  assignments: ShellWord[];
  redirects: ShellRedirect[];
  origin: CommandOrigin;
}

export interface SimpleCommand {
  /** The effective command after wrappers are stripped: values after quote removal (raw text for dynamic words). */
  argv: string[];
  words: ShellWord[];
  /** `NAME=value` assignments in front of the command, raw (those passed through `env` stay in its wrapper). */
  assignments: string[];
  redirects: ShellRedirect[];
  origin: CommandOrigin;
  /** Outermost first. */
  wrappers: CommandWrapper[];
  /** Runs with elevated privileges (`sudo`, `doas`): never read-only, never matched without the wrapper. */
  elevated: boolean;
  /** Hands a script to another shell (`bash -c`, `eval`, `watch`): the script's own commands are listed separately. */
  delegates: boolean;
  /** Runs commands in ways a prefix rule must not approve (`watch`, `setsid`, `flock`, `find -exec`): only an exact rule can. */
  exactOnly: boolean;
  /** Receives more arguments at run time (`xargs CMD`): exact rules cannot approve it. */
  appendsArgs: boolean;
  /** For a command run by `find -exec`, `watch` or `flock -c`: the command that runs it. */
  parent?: SimpleCommand;
}

export type SplitProblemKind = "unparseable" | "dynamic" | "too-long" | "too-deep";

export interface SplitProblem {
  kind: SplitProblemKind;
  /** Written for the model and the user. */
  detail: string;
}

export interface SplitResult {
  commands: SimpleCommand[];
  /** Anything that could hide a command: callers must never allow a command with problems without asking. */
  problems: SplitProblem[];
}
