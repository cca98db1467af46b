/**
 * What both Grep backends (ripgrep and in-process) take and return. Backends produce raw,
 * unpaginated results in one shape; grep-format.ts turns either into the same tool output.
 */

export type GrepMode = "content" | "files_with_matches" | "count";

export interface GrepRequest {
  pattern: string;
  /** Absolute path of the file or directory to search. */
  root: string;
  rootIsFile: boolean;
  /** `--glob` patterns, already split (see splitGlobs); a leading `!` excludes. */
  globs: string[];
  /** A ripgrep file type name (`ts`, `py`, …). */
  type?: string;
  mode: GrepMode;
  ignoreCase: boolean;
  /** `.` matches newlines and matches may span lines. */
  multiline: boolean;
  /** Context lines (content mode). */
  before: number;
  after: number;
}

export type ContentItem =
  | { kind: "line"; path: string; lineNumber: number; isMatch: boolean; text: string }
  | { kind: "separator" }
  /** A line printed as is, e.g. ripgrep's "binary file matches" notice for an explicit binary file. */
  | { kind: "note"; text: string };

export type GrepRaw = { incomplete: boolean } & (
  | { mode: "files_with_matches"; files: string[] }
  | { mode: "count"; counts: Array<{ path: string; count: number }> }
  | { mode: "content"; items: ContentItem[] }
);

/** Lines longer than this many bytes are replaced whole by a marker (ripgrep's `--max-columns`). */
export const MAX_LINE_BYTES = 10_000;
/** A backend stops collecting output past this many bytes and reports the result incomplete. */
export const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** ripgrep's marker for a line over MAX_LINE_BYTES; the JS backend prints the same. */
export function omittedLineMarker(isMatch: boolean): string {
  return isMatch ? "[Omitted long matching line]" : "[Omitted long context line]";
}

/** ripgrep's notice for an explicitly named binary file that matches. */
export function binaryMatchNotice(path: string, nulOffset: number): string {
  return `${path}: binary file matches (found "\\0" byte around offset ${nulOffset})`;
}

/**
 * Splits Grep's `glob` input the way Claude Code does: on whitespace, then on commas unless the
 * piece uses braces (`*.{ts,tsx}` stays whole).
 */
export function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return [];
  const globs: string[] = [];
  for (const piece of glob.split(/\s+/)) {
    if (piece.includes("{") && piece.includes("}")) globs.push(piece);
    else globs.push(...piece.split(","));
  }
  return globs.filter((piece) => piece.length > 0);
}

/**
 * File types for the in-process backend: a subset of ripgrep's built-in `--type` table, with the
 * same globs (matched against the file name), so both backends select the same files.
 */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  asm: ["*.S", "*.asm", "*.s"],
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  clojure: ["*.clj", "*.cljc", "*.cljs", "*.cljx"],
  cmake: ["*.cmake", "CMakeLists.txt"],
  config: ["*.cfg", "*.conf", "*.config", "*.ini"],
  cpp: ["*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"],
  cs: ["*.cs"],
  csharp: ["*.cs"],
  css: ["*.css", "*.scss"],
  csv: ["*.csv"],
  dart: ["*.dart"],
  docker: ["*Dockerfile*"],
  elixir: ["*.eex", "*.ex", "*.exs", "*.heex", "*.leex", "*.livemd"],
  erlang: ["*.erl", "*.hrl"],
  go: ["*.go"],
  graphql: ["*.graphql", "*.graphqls"],
  h: ["*.h", "*.hpp"],
  haskell: ["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"],
  html: ["*.ejs", "*.htm", "*.html"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.cjs", "*.js", "*.jsx", "*.mjs", "*.vue"],
  json: ["*.json", "composer.lock", "*.sarif"],
  jsonl: ["*.jsonl"],
  julia: ["*.jl"],
  kotlin: ["*.kt", "*.kts"],
  less: ["*.less"],
  lua: ["*.lua"],
  make: ["*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"],
  nix: ["*.nix"],
  objc: ["*.h", "*.m"],
  ocaml: ["*.ml", "*.mli", "*.mll", "*.mly"],
  perl: ["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.pht", "*.phtml"],
  protobuf: ["*.proto"],
  ps: ["*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"],
  py: ["*.py", "*.pyi"],
  python: ["*.py", "*.pyi"],
  r: ["*.R", "*.Rmd", "*.Rnw", "*.r"],
  ruby: ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"],
  rust: ["*.rs"],
  sass: ["*.sass", "*.scss"],
  scala: ["*.sbt", "*.scala"],
  sh: ["*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"],
  sql: ["*.psql", "*.sql"],
  svelte: ["*.svelte", "*.svelte.ts"],
  swift: ["*.swift"],
  tex: ["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"],
  tf: ["*.tf", "*.tf.json", "*.tfvars"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.cts", "*.mts", "*.ts", "*.tsx"],
  typescript: ["*.cts", "*.mts", "*.ts", "*.tsx"],
  txt: ["*.txt"],
  vue: ["*.vue"],
  xml: ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"],
  yaml: ["*.yaml", "*.yml"],
  zig: ["*.zig"],
};
