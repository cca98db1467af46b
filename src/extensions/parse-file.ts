/**
 * One component file → its normalised frontmatter and problems: the unit the index cache stores.
 * Only the head of the file is read; a file that cannot be read is a problem, never an exception.
 */
import { AGENT_FIELDS, agentMeta, type AgentReading } from "./agent-meta.ts";
import { FieldReader } from "./fields.ts";
import { firstParagraph, readHead, type FileHead } from "./file-head.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import type { ScanEntry } from "./scan.ts";
import { SKILL_FIELDS, skillMeta } from "./skill-meta.ts";
import type { ComponentSource, ExtensionProblem, SkillMeta } from "./types.ts";

export type ParsedFile =
  | { kind: "skill" | "command"; meta: SkillMeta; problems: ExtensionProblem[] }
  | { kind: "agent"; reading: AgentReading; problems: ExtensionProblem[] }
  | { kind: "unreadable"; problems: ExtensionProblem[] };

function bodyOf(head: FileHead): string {
  return head.text.slice(head.split.bodyOffset);
}

function hasDescriptionLine(head: FileHead): boolean {
  return /^description\s*:/m.test(head.split.block ?? "");
}

/** A file's problems in the order of its lines (file-wide ones first), as an editor lists them. */
function byLine(problems: ExtensionProblem[]): ExtensionProblem[] {
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

export async function parseComponentFile(entry: ScanEntry, source: ComponentSource): Promise<ParsedFile> {
  const invocable = entry.kind !== "agent";
  let head: FileHead;
  try {
    head = readHead(entry.file, entry.size, (partial) => invocable && !hasDescriptionLine(partial) && firstParagraph(bodyOf(partial)).reachedEnd);
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : String(error);
    return {
      kind: "unreadable",
      problems: [{ code: "unreadable", severity: "error", file: entry.file, message: `cannot read this file (${code}); it is not loaded. Check its permissions.` }],
    };
  }
  const problems: ExtensionProblem[] = [];
  if (head.split.unclosed) {
    problems.push({
      code: "frontmatter-unclosed",
      severity: "warning",
      file: entry.file,
      line: 1,
      message: `frontmatter opened with "---" on line 1 is never closed, so the whole file is read as the body. Add a "---" line after the last field.`,
    });
  }
  const parsed = await parseFrontmatter(entry.file, head.split, invocable ? SKILL_FIELDS : AGENT_FIELDS);
  problems.push(...parsed.problems);
  const reader = new FieldReader(parsed.data, parsed.lines, entry.file, problems);
  if (entry.kind === "agent") {
    const stem = entry.id.split(":").at(-1) ?? entry.id;
    const reading = agentMeta(reader, { stem, ...(source.namespace === undefined ? {} : { plugin: source.namespace }) });
    return { kind: "agent", reading, problems: byLine(problems) };
  }
  if (entry.kind === "skill" && parsed.mode === "none" && !head.split.unclosed) {
    problems.push({
      code: "no-frontmatter",
      severity: "info",
      file: entry.file,
      line: 1,
      message: `SKILL.md has no frontmatter; the skill is named after its folder and described by its first paragraph. Start the file with "---", "name: …", "description: …", "---" to describe it to the model.`,
    });
  }
  const paragraph = firstParagraph(bodyOf(head)).text;
  const meta = skillMeta(reader, entry.kind, paragraph === "" ? undefined : paragraph);
  return { kind: entry.kind, meta, problems: byLine(problems) };
}
