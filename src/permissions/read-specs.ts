/**
 * The options each file reader accepts and what they read (GNU coreutils, grep, diffutils,
 * ripgrep, tree). A command is on the read-only list only with the options listed here; any other
 * option makes it ask, because it might run something, write, or read more than the gate sees.
 * Readers that are not read-only (awk, cp, curl, …) are listed too, so that a Read deny rule
 * still holds when an allow rule lets them run.
 */
import type { ReaderSpec } from "./read-types.ts";

const HELP = ["help", "version"];

const GREP_OPTIONS = {
  flags: "EFGPiyvwxcLloqsbHhnTZzUaIrR",
  values: "efmABCdD",
  numbers: true,
  long: [
    "extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case", "no-ignore-case", "invert-match",
    "word-regexp", "line-regexp", "count", "color", "colour", "files-without-match", "files-with-matches", "only-matching",
    "quiet", "silent", "no-messages", "byte-offset", "with-filename", "no-filename", "line-number", "line-buffered",
    "initial-tab", "null", "null-data", "text", "recursive", "dereference-recursive", "regexp=", "file=", "max-count=",
    "after-context=", "before-context=", "context=", "binary-files=", "devices=", "directories=", "exclude=", "exclude-from=",
    "exclude-dir=", "include=", "label=", ...HELP,
  ],
} as const;

const grep: ReaderSpec = {
  options: GREP_OPTIONS,
  operands: "content",
  skip: 1,
  skipUnless: ["-e", "-f", "--regexp", "--file"],
  fileValues: ["-f", "--file", "--exclude-from"],
  recursive: ["-r", "-R", "--recursive", "--dereference-recursive"],
  follow: ["-R", "--dereference-recursive"],
  defaultTree: "recursive",
  readOnly: true,
};

const RG_LONG = [
  "after-context=", "before-context=", "context=", "max-depth=", "maxdepth=", "encoding=", "regexp=", "file=", "glob=", "iglob=",
  "threads=", "max-columns=", "max-count=", "replace=", "type=", "type-not=", "type-add=", "type-clear=", "sort=", "sortr=",
  "max-filesize=", "path-separator=", "color=", "colors=", "context-separator=", "field-context-separator=",
  "field-match-separator=", "engine=", "ignore-file=", "dfa-size-limit=", "regex-size-limit=", "text", "byte-offset",
  "count", "count-matches", "fixed-strings", "with-filename", "no-filename", "ignore-case", "files-with-matches",
  "files-without-match", "follow", "no-line-number", "line-number", "only-matching", "pcre2", "pretty", "quiet",
  "smart-case", "case-sensitive", "multiline", "multiline-dotall", "unrestricted", "invert-match", "word-regexp",
  "line-regexp", "search-zip", "null", "null-data", "hidden", "no-hidden", "no-ignore", "no-ignore-vcs",
  "no-ignore-parent", "no-ignore-dot", "no-ignore-global", "no-ignore-files", "no-ignore-exclude", "no-messages",
  "no-heading", "heading", "column", "no-column", "json", "no-json", "stats", "files", "type-list", "trim", "vimgrep",
  "one-file-system", "max-columns-preview", "passthru", "passthrough", "binary", "no-binary", "crlf", "no-config",
  "block-buffered", "line-buffered", "glob-case-insensitive", "sort-files", "no-unicode", "auto-hybrid-regex",
  "include-zero", "no-follow", "no-filename", "no-crlf", "no-pcre2-unicode", "debug", "trace", "pre=", "pre-glob=", "hostname-bin=", ...HELP,
];

const rg: ReaderSpec = {
  options: { flags: "abcFHhiIlLNnoPpqSsUuVvwxz0.", values: "ABCdEefgjMmrTt", long: RG_LONG },
  operands: "tree",
  skip: 1,
  skipUnless: ["-e", "-f", "--regexp", "--file", "--files", "--type-list"],
  fileValues: ["-f", "--file", "--ignore-file"],
  follow: ["-L", "--follow"],
  defaultTree: "always",
  unsafe: ["--pre", "--pre-glob", "--hostname-bin"],
  readOnly: true,
};

const LS_LONG = [
  "all", "almost-all", "author", "escape", "directory", "classify", "file-type", "full-time", "human-readable", "si",
  "dereference-command-line", "dereference-command-line-symlink-to-dir", "dereference", "numeric-uid-gid", "literal",
  "inode", "kibibytes", "hide-control-chars", "show-control-chars", "quote-name", "recursive", "reverse", "size",
  "context", "zero", "group-directories-first", "no-group", "block-size=", "color", "format=", "hide=", "hyperlink",
  "ignore=", "indicator-style=", "quoting-style=", "sort=", "time", "time-style=", "tabsize=", "width=", ...HELP,
];

const COREUTILS_DIFF_LONG = [
  "normal", "brief", "report-identical-files", "context", "unified", "ed", "rcs", "side-by-side", "left-column",
  "suppress-common-lines", "show-c-function", "show-function-line=", "label=", "expand-tabs", "initial-tab", "tabsize=",
  "suppress-blank-empty", "paginate", "text", "recursive", "no-dereference", "new-file", "unidirectional-new-file",
  "ignore-file-name-case", "no-ignore-file-name-case", "exclude=", "exclude-from=", "starting-file=", "from-file=",
  "to-file=", "ignore-case", "ignore-tab-expansion", "ignore-trailing-space", "ignore-space-change", "ignore-all-space",
  "ignore-blank-lines", "ignore-matching-lines=", "binary", "minimal", "horizon-lines=", "speed-large-files", "color",
  "palette=", "strip-trailing-cr", "width=", "old-group-format=", "new-group-format=", "unchanged-group-format=",
  "changed-group-format=", "line-format=", "old-line-format=", "new-line-format=", "unchanged-line-format=", ...HELP,
];

const names = (flags: string, long: readonly string[], values = ""): ReaderSpec => ({
  options: { flags, values, long: [...long, ...HELP] },
  operands: "names",
  readOnly: true,
});

const content = (flags: string, long: readonly string[], values = "", extra: Partial<ReaderSpec> & { numbers?: boolean } = {}): ReaderSpec => {
  const { numbers, ...rest } = extra;
  return { options: { flags, values, numbers, long: [...long, ...HELP] }, operands: "content", readOnly: true, ...rest };
};

/** Not on the read-only list: what they read still counts against Read deny rules. */
const reader = (values = "", extra: Partial<ReaderSpec> = {}): ReaderSpec => ({
  options: { values },
  operands: "content",
  readOnly: false,
  ...extra,
});

export const READER_SPECS: Record<string, ReaderSpec> = {
  ls: names("aAbBcCdfFghHiklLmnNopqQrRsStuUvxXZ1", LS_LONG, "ITw"),
  stat: names("LftZ", ["dereference", "file-system", "format=", "printf=", "terse", "cached="], "c"),
  du: {
    ...names("0abcDhHklLmsSxP", [
      "null", "all", "apparent-size", "block-size=", "bytes", "total", "dereference-args", "dereference", "max-depth=",
      "human-readable", "inodes", "kilobytes", "count-links", "no-dereference", "separate-dirs", "si", "summarize",
      "threshold=", "time", "time-style=", "exclude=", "exclude-from=", "one-file-system", "files0-from=",
    ], "BdtX"),
    fileValues: ["-X", "--exclude-from"],
    nameFiles: ["--files0-from"],
  },
  tree: {
    ...names("adlfxRqNQpugshDFvtcUriAnCSJX", [
      "gitignore", "ignore-case", "matchdirs", "metafirst", "prune", "noreport", "charset=", "filelimit=", "timefmt=",
      "dirsfirst", "filesfirst", "sort=", "du", "si", "inodes", "device", "nolinks", "hintro=", "houtro=", "output=",
    ], "LPIHTo"),
    unsafe: ["-o", "--output"],
  },
  realpath: names("eEmLPqsz", ["canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "strip", "no-symlinks", "zero", "relative-to=", "relative-base="]),
  readlink: names("femnqsvz", ["canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"]),
  basename: { ...names("az", ["multiple", "suffix=", "zero"], "s"), operands: "none" },
  dirname: { ...names("z", ["zero"]), operands: "none" },
  which: { ...names("as", []), operands: "none" },
  cat: content("AbeEnstTuv", ["show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"]),
  head: content("qvz", ["bytes=", "lines=", "quiet", "silent", "verbose", "zero-terminated"], "nc", { numbers: true }),
  tail: content("fFqvz", ["bytes=", "follow", "lines=", "max-unchanged-stats=", "pid=", "quiet", "retry", "silent", "sleep-interval=", "verbose", "zero-terminated"], "ncs", { numbers: true }),
  wc: content("clmwL", ["bytes", "chars", "lines", "max-line-length", "words", "total=", "files0-from="], "", { nameFiles: ["--files0-from"] }),
  sort: content("bdfgiMhnRrVcCsuzm", [
    "ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort",
    "human-numeric-sort", "numeric-sort", "random-sort", "random-source=", "reverse", "sort=", "version-sort", "batch-size=",
    "check", "debug", "files0-from=", "key=", "merge", "field-separator=", "buffer-size=", "temporary-directory=", "parallel=",
    "stable", "unique", "zero-terminated", "output=", "compress-program=",
  ], "kStTo", { fileValues: ["--random-source"], nameFiles: ["--files0-from"], unsafe: ["-o", "--output", "--compress-program"] }),
  uniq: content("cdDiuz", ["count", "repeated", "all-repeated", "group", "ignore-case", "unique", "zero-terminated", "skip-fields=", "skip-chars=", "check-chars="], "fsw", { maxInputs: 1 }),
  cut: content("nsz", ["bytes=", "characters=", "delimiter=", "fields=", "complement", "only-delimited", "output-delimiter=", "zero-terminated"], "bcdf"),
  tr: { ...content("cCdst", ["complement", "delete", "squeeze-repeats", "truncate-set1"]), operands: "none" },
  diff: {
    ...content("abBdeEfhHilnNpPqrsStTuwyZc", COREUTILS_DIFF_LONG, "CDFIxXLUWS", { numbers: true }),
    operands: "tree",
    fileValues: ["-X", "--exclude-from", "--from-file", "--to-file"],
    follow: true,
    noFollow: ["--no-dereference"],
  },
  file: content("bcdEhiIkLlNnprsSvz0", ["brief", "checking-printout", "debug", "no-dereference", "mime", "mime-type", "mime-encoding", "keep-going", "dereference", "list", "no-pad", "no-buffer", "preserve-date", "raw", "special-files", "uncompress", "uncompress-noreport", "print0", "extension", "apple", "exclude=", "exclude-quiet=", "separator=", "parameter=", "magic-file=", "files-from=", "compile"], "eFPmf", { unsafe: ["-m", "--magic-file", "-f", "--files-from", "-C", "--compile"] }),
  grep,
  egrep: grep,
  fgrep: grep,
  rg,
  // Not on the read-only list: they read what they are given, and an allow rule may let them run.
  less: reader("bhjkoOpPtTxyz#"),
  more: reader("n"),
  nl: reader("bdfhilnsvw"),
  od: reader("AjNSt"),
  xxd: reader("cglos"),
  hexdump: reader("efns", { fileValues: ["-f"] }),
  strings: reader("nt"),
  base64: reader("w"),
  base32: reader("w"),
  md5sum: reader(), sha1sum: reader(), sha224sum: reader(), sha256sum: reader(), sha384sum: reader(), sha512sum: reader(),
  b2sum: reader("l"), cksum: reader("a"), sum: reader(),
  tac: reader("s"), rev: reader(), fmt: reader("pw"), fold: reader("w"), pr: reader("DNowWlS"), expand: reader("t"), unexpand: reader("t"),
  column: reader("cEHilNoORsTW"), paste: reader("d"), comm: reader(), join: reader("aejotv12"), iconv: reader("fto"),
  cmp: reader("in"), diff3: reader("L"), sdiff: reader("Iow"), look: { ...reader("t"), skip: 1 },
  zcat: reader(), zless: reader(), zmore: reader(), bzcat: reader(), xzcat: reader(), lzcat: reader(), zstdcat: reader(),
  zgrep: { ...reader("efmABCdD"), skip: 1, skipUnless: ["-e", "-f"] },
  bat: reader("lHmrt"),
  jq: reader("fL", { skip: 1, skipUnless: ["-f", "--from-file", "-n", "--null-input"], fileValues: ["-f", "--from-file", "--rawfile", "--slurpfile"] }),
  yq: reader("fI", { skip: 1, fileValues: ["--from-file"] }),
  cp: reader("St", { recursive: ["-r", "-R", "-a", "--recursive", "--archive"], follow: ["-L", "--dereference"], lastIsDestination: true }),
  rsync: reader("eBfT", { recursive: ["-r", "-a", "--recursive", "--archive"], follow: ["-L", "--copy-links"], lastIsDestination: true, fileValues: ["--files-from", "--exclude-from", "--include-from"] }),
  scp: reader("cFiJloPS", { recursive: ["-r"], follow: true, lastIsDestination: true, fileValues: ["-F", "-i"] }),
  zip: reader("bnt", { skip: 1, recursive: ["-r", "-R", "--recurse-paths"], follow: true }),
  dd: { ...reader(), operands: "none" },
  // Linking or moving a denied file gives it a name the rules do not know: the source counts as read.
  ln: reader("St", { lastIsDestination: true }),
  mv: reader("St", { lastIsDestination: true }),
  install: reader("gmoSt", { lastIsDestination: true }),
  source: reader(), ".": reader(),
};

/** Interpreters and shells given a script file read it (and a syntax error prints its lines). */
export const SCRIPT_RUNNERS = new Set([
  "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "python", "python2", "python3", "node", "nodejs", "deno", "bun",
  "ruby", "perl", "php", "lua", "tclsh", "Rscript", "ts-node", "tsx",
]);
