/**
 * What one simple command may read, as the read gate sees it. A Read deny rule holds for a Bash
 * command when none of these can reach a denied file: the paths it names, the trees it reads
 * recursively, the content git shows, and files only known when it runs.
 */
import type { OptionSpec } from "./option-parse.ts";
import type { ShellWord } from "./shell-types.ts";

/** `content`: the file's bytes; `tree`: everything beneath (a file: itself); `names`: listings and metadata only. */
export type ReadKind = "content" | "tree" | "names";

export interface ReadTarget {
  word: ShellWord;
  kind: ReadKind;
  /** The recursion follows symbolic links it meets (`grep -R`, `rg -L`, `diff -r`). */
  follow?: boolean;
}

export interface CommandReads {
  targets: ReadTarget[];
  /** Shows the content of files git tracks: work tree, index or history (`git diff`, `git show`). */
  gitTracked: boolean;
  /** Read only when the command runs outside a git repository (`git diff A B` then acts as `--no-index`). */
  outsideRepo?: ReadTarget[];
  /** Why some files it reads are only known when it runs (`xargs cat`, `--files0-from`, `cat "$F"`). */
  unknown?: string;
  /** Globs whose expansion could begin with `-` and so turn into an option (`grep x *` with a file named `-r`). */
  optionGlobs?: ShellWord[];
  /**
   * Why the command, as called, is not read-only: an option that runs or writes something, or one
   * not known to be harmless. Undefined when it is on the read-only list with every option known.
   */
  notReadOnly?: string;
}

/** How a reader's operands and options read files. */
export interface ReaderSpec {
  options: OptionSpec;
  /** What the operands are (after `skip`); `none`: not paths at all (tr, echo). */
  operands: ReadKind | "none";
  /** Leading operands that are not paths (a pattern, a program), unless one of `skipUnless` was given. */
  skip?: number;
  skipUnless?: readonly string[];
  /** Options whose value is a file that is read. */
  fileValues?: readonly string[];
  /** Options whose value is a file of names that are then read (`--files0-from`): read, and the names unknown. */
  nameFiles?: readonly string[];
  /** Options that turn content operands into trees read recursively. */
  recursive?: readonly string[];
  /** Recursion follows symlinks: always (`true`) or with these options. */
  follow?: readonly string[] | true;
  /** Options that make the recursion stop following symlinks (diff `--no-dereference`). */
  noFollow?: readonly string[];
  /** With no path operand: reads the working directory recursively (always, or only when recursive). */
  defaultTree?: "always" | "recursive";
  /** Options that write, run or widen beyond what this spec models: never read-only. */
  unsafe?: readonly string[];
  /** The last operand is a destination, not read (cp, rsync, scp). */
  lastIsDestination?: boolean;
  /** At most this many operands are inputs; more means it writes (uniq IN OUT). */
  maxInputs?: number;
  /** Runs without a rule (inside the working directories) when every option is known. */
  readOnly: boolean;
}
