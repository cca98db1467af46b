/**
 * Output styles (settings `outputStyle`): how the model talks, not what it knows. The built-in
 * ones and Markdown files in `output-styles/` of the user's and the project's `.clew`/`.claude`
 * folders (frontmatter `name`, default the file name, and `description`; the body is the style).
 * The chosen style's text joins the system prompt after the shared first block, so choosing one
 * never costs the prompt cache every session shares — which is also why clew keeps its coding
 * instructions under every style (Claude Code drops them unless `keep-coding-instructions`).
 * Read only when a style is chosen.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontmatter, splitFrontmatter } from "./frontmatter.ts";

export interface OutputStyle {
  name: string;
  description: string;
  prompt: string;
  /** The file a custom style comes from (built-in ones have none). */
  file?: string;
}

const BUILT_IN: readonly OutputStyle[] = [
  {
    name: "Explanatory",
    description: "Explains the choices behind the work as it goes",
    prompt:
      "While you complete the task, teach. Before and after writing code, add short \"Insight\" notes (two or three points) about why this approach was chosen, the trade-offs, and patterns in this codebase worth knowing. Keep them specific to the code at hand, not general programming advice.",
  },
  {
    name: "Learning",
    description: "Works with the user, leaving small parts for them to write",
    prompt:
      "Work as a pair-programming teacher. Share short \"Insight\" notes about the choices you make, and where a small piece of logic (a condition, a function body of a few lines) teaches something, leave it for the user: write the surrounding code, put a `TODO(human)` marker where their part goes, explain what it should do and ask them to write it before you go on.",
  },
  {
    name: "Proactive",
    description: "Acts at once on reasonable assumptions instead of stopping to ask",
    prompt:
      "Act without pausing for routine decisions: when something is unclear but a reasonable default exists, take it, say which assumption you made, and keep going. Prefer doing to planning aloud; ask only when a choice is costly to undo or the request is truly ambiguous.",
  },
  {
    name: "Concise",
    description: "Leads with the result and keeps answers short",
    prompt: "Lead with the result. Skip preamble, narration of what you are about to do and closing summaries; answer in as few words as the content allows, while doing the work as thoroughly as ever.",
  },
];

const DEFAULT_NAMES = new Set(["default", ""]);

/** The style files in each folder, in the order given (the first of a name wins). */
async function customStyles(folders: readonly string[]): Promise<OutputStyle[]> {
  const styles: OutputStyle[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith(".md")).sort();
    } catch {
      continue; // no such folder: nothing of it
    }
    for (const name of names) {
      const file = join(folder, name);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      const split = splitFrontmatter(text);
      const { data } = await parseFrontmatter(file, split, new Set(["name", "description", "keep-coding-instructions"]));
      const declared = typeof data.name === "string" && data.name.trim() !== "" ? data.name.trim() : basename(name, ".md");
      styles.push({ name: declared, description: typeof data.description === "string" ? data.description : "", prompt: text.slice(split.bodyOffset).trim(), file });
    }
  }
  return styles;
}

export type StyleChoice =
  | { kind: "default"; available: string[] }
  | { kind: "style"; style: OutputStyle; available: string[] }
  | { kind: "unknown"; available: string[] };

/** The style `name` means (case aside), among the built-in ones and those in `folders` (strongest first). */
export async function chooseOutputStyle(name: string | undefined, folders: readonly string[]): Promise<StyleChoice> {
  const wanted = (name ?? "").trim().toLowerCase();
  if (DEFAULT_NAMES.has(wanted)) return { kind: "default", available: ["default", ...BUILT_IN.map((style) => style.name)] };
  const custom = await customStyles(folders);
  const all = [...custom, ...BUILT_IN];
  const available = ["default", ...new Set(all.map((style) => style.name))];
  const style = all.find((candidate) => candidate.name.toLowerCase() === wanted);
  return style ? { kind: "style", style, available } : { kind: "unknown", available };
}

/** The system block a style adds. */
export function outputStyleBlock(style: OutputStyle): string {
  return `# Output style: ${style.name}\n${style.prompt}`;
}
