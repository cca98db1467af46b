/**
 * What a git command line may read. Most read-only subcommands print names, hashes or messages;
 * those that print file content (`diff`, `show`, `log -p`, `grep`, `blame`, `cat-file`) read what
 * git tracks, and a few read the work tree beyond it (`grep --untracked`, `--no-index`). Options
 * are allow-listed per subcommand: an option not listed makes the command ask.
 */
import { hasAny, parseArgs, valuesOf, type OptionSpec } from "./option-parse.ts";
import type { CommandReads, ReadTarget } from "./read-types.ts";
import type { ShellWord } from "./shell-types.ts";
import { literalWord } from "./shell-words.ts";

const SAFE_GLOBAL = new Set(["--no-pager", "-P", "--paginate", "-p", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects", "--no-advice"]);

/** Options shared by the commands that format commits and diffs (log, show, diff, whatchanged, …). */
const DIFF_AND_LOG = [
  "patch", "no-patch", "unified=", "raw", "patch-with-raw", "stat", "numstat", "shortstat", "dirstat", "summary",
  "patch-with-stat", "name-only", "name-status", "submodule", "color", "no-color", "color-moved", "color-words",
  "word-diff", "word-diff-regex=", "no-renames", "find-renames", "find-copies", "find-copies-harder", "irreversible-delete",
  "diff-filter=", "abbrev", "no-abbrev", "binary", "full-index", "relative", "no-relative", "text", "ignore-space-at-eol",
  "ignore-space-change", "ignore-all-space", "ignore-blank-lines", "ignore-cr-at-eol", "inter-hunk-context=", "function-context",
  "exit-code", "quiet", "ignore-submodules", "src-prefix=", "dst-prefix=", "no-prefix", "default-prefix", "line-prefix=",
  "minimal", "patience", "histogram", "anchored=", "diff-algorithm=", "stat-width=", "stat-count=", "compact-summary",
  "check", "ws-error-highlight=", "merge-base", "cached", "staged", "pickaxe-all", "pickaxe-regex", "follow", "oneline",
  "pretty", "format=", "abbrev-commit", "no-abbrev-commit", "encoding=", "notes", "no-notes", "show-signature",
  "relative-date", "date=", "parents", "children", "left-right", "graph", "no-walk", "decorate", "no-decorate",
  "source", "use-mailmap", "full-diff", "log-size", "max-count=", "skip=", "since=", "after=", "until=", "before=",
  "author=", "committer=", "grep=", "all-match", "invert-grep", "regexp-ignore-case", "basic-regexp", "extended-regexp",
  "fixed-strings", "perl-regexp", "remove-empty", "merges", "no-merges", "min-parents=", "max-parents=", "first-parent",
  "all", "branches", "tags", "remotes", "glob=", "exclude=", "reflog", "walk-reflogs", "merge", "boundary", "simplify-by-decoration",
  "full-history", "dense", "sparse", "simplify-merges", "ancestry-path", "topo-order", "date-order", "author-date-order",
  "reverse", "cherry-pick", "cherry-mark", "cherry", "left-only", "right-only", "no-expand-tabs", "expand-tabs", "mailmap",
  "count", "dd", "cc", "combined-all-paths", "remerge-diff", "diff-merges=", "no-diff-merges", "show-linear-break", "stdin",
  "ignore-missing", "numbered", "summary", "format-patch", "name-rev", "no-name-rev", "sort=", "email", "committer",
  "group=", "unmerged", "ours", "theirs", "base", "textconv", "no-textconv", "no-ext-diff", "color-moved-ws=", "break-rewrites",
];

const LOG_SHORT: OptionSpec = { flags: "puszRawcmMCBDrthqg", values: "UnOGSLlX", numbers: true, long: DIFF_AND_LOG };

type Subcommand = { options: OptionSpec; shows: "content" | "names"; check?: (words: readonly ShellWord[], index: number) => string | undefined };

const NAMES_ONLY: OptionSpec = { flags: "", long: [] };

const SUBCOMMANDS: Record<string, Subcommand> = {
  log: { options: LOG_SHORT, shows: "content" },
  show: { options: LOG_SHORT, shows: "content" },
  diff: { options: { ...LOG_SHORT, long: [...DIFF_AND_LOG, "no-index"] }, shows: "content" },
  whatchanged: { options: LOG_SHORT, shows: "content" },
  shortlog: { options: { flags: "nsec", values: "w", long: ["numbered", "summary", "email", "committer", "group=", "format=", "all", "no-merges", "since=", "until="] }, shows: "names" },
  blame: { options: { flags: "bclnpsStwefMCL", values: "LS", long: ["root", "show-stats", "porcelain", "line-porcelain", "incremental", "contents=", "date=", "show-name", "show-number", "show-email", "abbrev", "reverse", "first-parent", "ignore-rev=", "ignore-revs-file=", "color-lines", "color-by-age", "progress", "no-progress", "encoding=", "minimal", "score-debug"] }, shows: "content" },
  grep: {
    options: {
      flags: "aiIvwlLchHnoqzEGFPWprs", values: "efABCm", numbers: true,
      long: ["cached", "untracked", "no-index", "exclude-standard", "no-exclude-standard", "recurse-submodules", "text", "textconv", "no-textconv", "ignore-case", "word-regexp", "invert-match", "full-name", "extended-regexp", "basic-regexp", "perl-regexp", "fixed-strings", "line-number", "column", "files-with-matches", "name-only", "files-without-match", "null", "only-matching", "count", "color", "no-color", "break", "heading", "show-function", "function-context", "and", "or", "not", "all-match", "quiet", "max-depth=", "threads=", "context=", "after-context=", "before-context=", "max-count=", "regexp=", "file="],
    },
    shows: "content",
  },
  "cat-file": { options: { flags: "tsepP", long: ["textconv", "filters", "batch", "batch-check", "batch-all-objects", "follow-symlinks", "unordered", "allow-unknown-type", "buffer", "path=", "mailmap", "no-mailmap"] }, shows: "content" },
  status: { options: { flags: "sbuvz", values: "", long: ["short", "branch", "porcelain", "long", "untracked-files", "ignore-submodules", "ignored", "column", "no-column", "ahead-behind", "no-ahead-behind", "renames", "no-renames", "find-renames", "show-stash", "null"] }, shows: "names" },
  "ls-files": { options: { flags: "cdmoiskuftvzer", values: "xX", long: ["cached", "deleted", "modified", "others", "ignored", "stage", "killed", "unmerged", "directory", "no-empty-directory", "exclude-standard", "full-name", "recurse-submodules", "abbrev", "eol", "debug", "error-unmatch", "deduplicate", "sparse", "format=", "exclude=", "exclude-from=", "exclude-per-directory="] }, shows: "names" },
  "ls-tree": { options: { flags: "dlrtz", long: ["long", "name-only", "name-status", "object-only", "full-name", "full-tree", "abbrev", "format="] }, shows: "names" },
  "rev-parse": { options: { flags: "q", long: ["short", "verify", "quiet", "abbrev-ref", "symbolic", "symbolic-full-name", "show-toplevel", "show-prefix", "show-cdup", "git-dir", "git-common-dir", "absolute-git-dir", "is-inside-work-tree", "is-inside-git-dir", "is-bare-repository", "is-shallow-repository", "show-superproject-working-tree", "all", "branches", "tags", "remotes", "sq", "revs-only", "no-revs", "flags", "no-flags", "default=", "since=", "until=", "local-env-vars", "path-format="] }, shows: "names" },
  "rev-list": { options: LOG_SHORT, shows: "names" },
  describe: { options: { long: ["all", "tags", "contains", "abbrev", "candidates=", "exact-match", "debug", "long", "match=", "exclude=", "always", "first-parent", "dirty", "broken"] }, shows: "names" },
  "name-rev": { options: { long: ["tags", "refs=", "exclude=", "all", "annotate-stdin", "name-only", "no-undefined", "always"] }, shows: "names" },
  "merge-base": { options: { flags: "a", long: ["all", "octopus", "independent", "is-ancestor", "fork-point"] }, shows: "names" },
  "show-ref": { options: { flags: "sdq", long: ["head", "heads", "tags", "dereference", "hash", "verify", "abbrev", "quiet", "exists", "branches"] }, shows: "names" },
  "for-each-ref": { options: { long: ["count=", "sort=", "format=", "color", "shell", "perl", "python", "tcl", "points-at=", "merged", "no-merged", "contains", "no-contains", "ignore-case", "omit-empty", "exclude="] }, shows: "names" },
  "count-objects": { options: { flags: "vH", long: ["verbose", "human-readable"] }, shows: "names" },
  version: { options: { long: ["build-options"] }, shows: "names" },
  help: { options: { flags: "aigmw", long: ["all", "guides", "config", "man", "web", "info"] }, shows: "names" },
  branch: {
    options: { flags: "alrvq", values: "", long: ["all", "list", "remotes", "verbose", "quiet", "show-current", "contains", "no-contains", "merged", "no-merged", "points-at=", "sort=", "format=", "color", "no-color", "column", "no-column", "abbrev", "no-abbrev", "ignore-case", "omit-empty"] },
    shows: "names",
    check: (words, index) => (hasOperands(words, index) && !words.some((word) => ["-l", "--list", "-a", "-r", "--contains", "--merged", "--no-merged", "--points-at"].includes(word.value)) ? "it creates a branch" : undefined),
  },
  tag: {
    options: { flags: "ln", values: "", numbers: true, long: ["list", "sort=", "contains", "no-contains", "merged", "no-merged", "points-at=", "format=", "color", "column", "no-column", "ignore-case", "omit-empty"] },
    shows: "names",
    check: (words, index) => (hasOperands(words, index) && !words.some((word) => word.value === "-l" || word.value === "--list") ? "it creates a tag" : undefined),
  },
  remote: { options: { flags: "v", long: ["verbose"] }, shows: "names", check: (words, index) => subcommandIn(words, index, ["", "get-url", "show"]) },
  config: { options: { flags: "lz", long: ["get", "get-all", "get-regexp", "get-urlmatch", "list", "global", "system", "local", "worktree", "show-origin", "show-scope", "name-only", "null", "type=", "default=", "bool", "int", "path", "includes", "no-includes"] }, shows: "names", check: (words, index) => configReadOnly(words, index) },
  stash: { options: { flags: "pu", long: ["patch", "stat", "include-untracked", "only-untracked"] }, shows: "content", check: (words, index) => subcommandIn(words, index, ["list", "show"]) },
  worktree: { options: { flags: "v", long: ["porcelain", "verbose", "expire=", "z"] }, shows: "names", check: (words, index) => subcommandIn(words, index, ["list"]) },
  reflog: { options: LOG_SHORT, shows: "content", check: (words, index) => subcommandIn(words, index, ["", "show"]) },
};

/** Options that make log-like commands print file content (or answer questions about it: `-S`, `-G`). */
const PATCH_OPTIONS = ["-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "-L", "--word-diff", "--color-words", "--cc", "-c", "--dd", "--remerge-diff", "-S", "-G", "--pickaxe-regex", "-W", "--function-context", "-U", "--unified", "--binary", "--full-diff"];
/** Options that make diff and show print only names and counts. */
const SUMMARY_OPTIONS = ["--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--summary", "-s", "--no-patch", "--dirstat", "--compact-summary", "--raw", "--quiet", "--exit-code"];

function showsContent(name: string, parsed: ReturnType<typeof parseArgs>): boolean {
  if (hasAny(parsed, PATCH_OPTIONS)) return true;
  if (name === "log" || name === "whatchanged" || name === "reflog") return false;
  if ((name === "diff" || name === "show") && hasAny(parsed, SUMMARY_OPTIONS)) return false;
  return true;
}

function hasOperands(words: readonly ShellWord[], index: number): boolean {
  return words.slice(index + 1).some((word) => !word.value.startsWith("-"));
}

function subcommandIn(words: readonly ShellWord[], index: number, allowed: readonly string[]): string | undefined {
  const first = words.slice(index + 1).find((word) => !word.value.startsWith("-"))?.value ?? "";
  return allowed.includes(first) ? undefined : `\`git ${words[index]?.value} ${first}\` changes the repository`;
}

function configReadOnly(words: readonly ShellWord[], index: number): string | undefined {
  const args = words.slice(index + 1).map((word) => word.value);
  if (args[0] === "get" || args[0] === "list") return undefined;
  const reads = args.some((arg) => /^--(get|get-all|get-regexp|get-urlmatch|list)$/.test(arg) || arg === "-l");
  return reads ? undefined : "it changes git configuration";
}

const DOT = literalWord(".");

export function gitReads(words: readonly ShellWord[]): CommandReads {
  const reads: CommandReads = { targets: [], gitTracked: false };
  let index = 1;
  while (index < words.length && (words[index]?.value ?? "").startsWith("-")) {
    const option = words[index]?.value ?? "";
    // `-C`, `-c`, `--git-dir`, `--work-tree`, `--exec-path` can run or point at anything.
    if (!SAFE_GLOBAL.has(option)) return { ...reads, gitTracked: true, unknown: `git ${option} may read another repository`, notReadOnly: `the git option ${option} can run or redirect anything` };
    index++;
  }
  const name = words[index]?.value ?? "";
  const sub = SUBCOMMANDS[name];
  if (!sub) {
    const other: CommandReads = { ...reads, gitTracked: true, notReadOnly: name ? `\`git ${name}\` is not a read-only git command` : "git without a subcommand" };
    if (name === "add" || name === "stage") other.targets.push(...addedPaths(words, index));
    return other;
  }
  const parsed = parseArgs(words, sub.options, index + 1);
  const refusal = sub.check?.(words, index);
  if (parsed.unknown.length > 0) reads.notReadOnly = `the option ${parsed.unknown[0]} of \`git ${name}\` is not known to be read-only`;
  else if (refusal) reads.notReadOnly = refusal;
  if (words.slice(index).some((word) => word.dynamic && /[$`]/.test(word.raw))) {
    reads.notReadOnly ??= "an argument only known at run time could be an option";
  }
  if (sub.shows === "content" && showsContent(name, parsed)) reads.gitTracked = true;
  if (name === "status" && hasAny(parsed, ["-v", "--verbose"])) reads.gitTracked = true;
  const paths = operandsAfterDashes(words, index);
  if (name === "diff") {
    if (hasAny(parsed, ["--no-index"])) reads.targets.push(...treesOf(paths.length > 0 ? paths : parsed.operands, true));
    else reads.outsideRepo = treesOf(parsed.operands, true);
  }
  if (name === "grep") {
    const untracked = hasAny(parsed, ["--untracked", "--no-index"]);
    const patterns = valuesOf(parsed, ["-e", "--regexp", "-f", "--file"]);
    reads.targets.push(...valuesOf(parsed, ["-f", "--file"]).map((word): ReadTarget => ({ word, kind: "content" })));
    const pathspecs = paths.length > 0 ? paths : parsed.operands.slice(patterns.length > 0 ? 0 : 1);
    if (untracked) reads.targets.push(...treesOf(pathspecs.length > 0 ? pathspecs : [DOT], false));
  }
  if (name === "blame") reads.targets.push(...valuesOf(parsed, ["--contents", "--ignore-revs-file"]).map((word): ReadTarget => ({ word, kind: "content" })));
  if (name === "stash" && hasAny(parsed, ["-u", "--include-untracked", "--only-untracked"])) reads.unknown = "it shows stashed files, which may include untracked ones";
  if (reads.gitTracked) {
    // Files the command names — a pathspec after `--`, or `rev:path` — are read as they were in git,
    // history included: a denied name is denied however old the copy.
    const named = [...paths, ...parsed.operands.filter((word) => /^[^:-][^:]*:./.test(word.value) && !word.value.includes("://")).map((word) => ({ ...word, value: word.value.slice(word.value.indexOf(":") + 1) }))];
    reads.targets.push(...named.filter((word) => !word.value.startsWith(":")).map((word): ReadTarget => ({ word, kind: "content" })));
  }
  return reads;
}

/**
 * What `git add` copies into the index, where `git diff --cached` and `git show` print it back:
 * the paths it names; with `--force`, whole trees (ignored files included).
 */
function addedPaths(words: readonly ShellWord[], index: number): ReadTarget[] {
  const rest = words.slice(index + 1);
  const forced = rest.some((word) => word.value === "--force" || /^-[a-zA-Z]*f/.test(word.value));
  return rest.filter((word) => !word.value.startsWith("-")).map((word): ReadTarget => (forced ? { word, kind: "tree", follow: false } : { word, kind: "content" }));
}

function operandsAfterDashes(words: readonly ShellWord[], index: number): ShellWord[] {
  const at = words.findIndex((word, i) => i > index && word.value === "--");
  return at === -1 ? [] : words.slice(at + 1);
}

function treesOf(words: readonly ShellWord[], follow: boolean): ReadTarget[] {
  return words.map((word) => ({ word, kind: "tree", follow }));
}
