/**
 * What compaction must not lose although it sits in old messages: the skills the model loaded
 * (their instructions stay in force for the rest of the task, and a summary keeps only their
 * gist — users saw hour-long tasks stall when skills were forgotten after compaction) and the
 * latest todo list. Read from the history as it was sent, earlier summaries included, so they
 * survive any number of compactions.
 */
import type { ContentBlockParam, MessageParam } from "../model/types.ts";
import { blocks } from "./compact.ts";

/** Skills carried over: the newest first, at most this many and this many characters in all. */
const MAX_SKILLS = 5;
const MAX_SKILL_CHARS = 20_000;
const SKILL_OPEN = /<loaded-skill name="([^"]*)">\n([\s\S]*?)\n<\/loaded-skill>/g;

function resultText(block: ContentBlockParam): string {
  if (block.type !== "tool_result") return "";
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** Each skill's latest instructions, oldest first (a skill loaded again counts once, at its latest). */
function loadedSkills(history: readonly MessageParam[]): Array<{ name: string; text: string }> {
  const calls = new Map<string, string>();
  const found = new Map<string, string>();
  for (const message of history) {
    for (const block of blocks(message)) {
      if (block.type === "tool_use" && block.name === "Skill") {
        const input = block.input as { skill?: unknown } | null;
        if (typeof input?.skill === "string") calls.set(block.id, input.skill);
      } else if (block.type === "tool_result" && !block.is_error && calls.has(block.tool_use_id)) {
        const name = calls.get(block.tool_use_id) as string;
        found.delete(name);
        found.set(name, resultText(block));
      } else if (block.type === "text") {
        // An earlier compaction's carried skills.
        for (const match of block.text.matchAll(SKILL_OPEN)) {
          found.delete(match[1] as string);
          found.set(match[1] as string, match[2] as string);
        }
      }
    }
  }
  return [...found].map(([name, text]) => ({ name, text }));
}

/** The last TodoWrite call's list, as lines. */
function latestTodos(history: readonly MessageParam[]): string[] | undefined {
  for (let at = history.length - 1; at >= 0; at--) {
    const message = history[at] as MessageParam;
    if (message.role !== "assistant") continue;
    for (const block of [...blocks(message)].reverse()) {
      if (block.type !== "tool_use" || block.name !== "TodoWrite") continue;
      const todos = (block.input as { todos?: unknown } | null)?.todos;
      if (!Array.isArray(todos)) return undefined;
      return todos.flatMap((todo: { content?: unknown; status?: unknown }) => (typeof todo.content === "string" ? [`- [${typeof todo.status === "string" ? todo.status : "pending"}] ${todo.content}`] : []));
    }
  }
  return undefined;
}

/** The sections compaction adds to its summary message (none when there is nothing to carry). */
export function carriedOver(history: readonly MessageParam[]): string[] {
  const sections: string[] = [];
  const skills = loadedSkills(history).reverse();
  const kept: string[] = [];
  let total = 0;
  for (const skill of skills) {
    if (kept.length === MAX_SKILLS) break;
    // One too big for what is left is skipped, not the end: an older, smaller one may still fit.
    if (total + skill.text.length > MAX_SKILL_CHARS) continue;
    total += skill.text.length;
    kept.unshift(`<loaded-skill name="${skill.name}">\n${skill.text}\n</loaded-skill>`);
  }
  if (kept.length > 0) sections.push(`Skills loaded earlier in this conversation; their instructions still apply:\n${kept.join("\n")}`);
  const todos = latestTodos(history);
  if (todos && todos.length > 0) sections.push(`The todo list as it stood (TodoWrite):\n${todos.join("\n")}`);
  return sections;
}
