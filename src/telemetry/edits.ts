/**
 * What a finished Edit, Write or NotebookEdit call changed, for `claude_code.lines_of_code.count`
 * and the `language` attribute of `claude_code.code_edit_tool.decision`. Lines come from the
 * unified diff the tool already shows the user, or, for a file the call created, from its text.
 */
import { extname } from "node:path";
import type { ToolDisplay } from "../tools/types.ts";

export const CODE_EDIT_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "NotebookEdit"]);

export interface LinesChanged {
  added: number;
  removed: number;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

/** Counts `+` and `-` lines of the hunks (the `---`/`+++` file header comes before the first `@@`). */
export function diffLines(diff: string): LinesChanged {
  let added = 0;
  let removed = 0;
  let inHunks = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("@@")) inHunks = true;
    else if (inHunks && line.startsWith("+")) added += 1;
    else if (inHunks && line.startsWith("-")) removed += 1;
  }
  return { added, removed };
}

function field(data: unknown, key: string): unknown {
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined;
}

/** Undefined when the call's change cannot be told (a Write too large to diff, a notebook cell). */
export function linesChanged(tool: string, display: ToolDisplay | undefined, data: unknown): LinesChanged | undefined {
  if (display?.diff) return diffLines(display.diff);
  if (tool === "Write" && field(data, "type") === "create") {
    const content = field(data, "content");
    return typeof content === "string" ? { added: lineCount(content), removed: 0 } : undefined;
  }
  if (tool === "Edit" && field(data, "oldString") === "") {
    const created = field(data, "newString");
    return typeof created === "string" ? { added: lineCount(created), removed: 0 } : undefined;
  }
  return undefined;
}

const LANGUAGES: Record<string, string> = {
  ts: "TypeScript", tsx: "TypeScript", mts: "TypeScript", cts: "TypeScript",
  js: "JavaScript", jsx: "JavaScript", mjs: "JavaScript", cjs: "JavaScript",
  py: "Python", md: "Markdown", mdx: "Markdown", json: "JSON", jsonc: "JSON",
  go: "Go", rs: "Rust", java: "Java", kt: "Kotlin", swift: "Swift", rb: "Ruby", php: "PHP",
  c: "C", h: "C", cc: "C++", cpp: "C++", cxx: "C++", hpp: "C++", cs: "C#", scala: "Scala",
  sh: "Shell", bash: "Shell", zsh: "Shell", ps1: "PowerShell", sql: "SQL", html: "HTML", htm: "HTML",
  css: "CSS", scss: "SCSS", vue: "Vue", svelte: "Svelte", yaml: "YAML", yml: "YAML", toml: "TOML",
  xml: "XML", ipynb: "Jupyter Notebook", lua: "Lua", dart: "Dart", ex: "Elixir", exs: "Elixir",
  hs: "Haskell", r: "R", tf: "Terraform",
};

/** The edited file's language by extension; `unknown` for one not listed (as Claude Code reports). */
export function languageOf(filePath: unknown): string {
  if (typeof filePath !== "string") return "unknown";
  return LANGUAGES[extname(filePath).slice(1).toLowerCase()] ?? "unknown";
}
