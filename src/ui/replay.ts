/**
 * A resumed conversation, condensed for the scrollback: the user's prompts, the model's text
 * and one line per tool call. Results, reminders and thinking are left out.
 */
import type { ContentBlockParam, MessageParam } from "../model/types.ts";
import { cutToWidth } from "./fit.ts";
import { toolSubject } from "./format.ts";
import { MarkdownLines } from "./markdown.ts";
import type { Theme } from "./theme.ts";

const MAX_TEXT_LINES = 12;

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function isReminder(text: string): boolean {
  return text.trimStart().startsWith("<system-reminder>");
}

/** With `width` (a terminal's columns), each tool line is cut to one row. */
export function replayLines(messages: readonly MessageParam[], theme: Theme, cwd: string, width?: number): string[] {
  const out: string[] = [];
  const markdown = new MarkdownLines(theme, () => width);
  for (const message of messages) {
    for (const block of blocksOf(message)) {
      if (block.type === "text") {
        const text = block.text.trim();
        if (text === "" || isReminder(text)) continue;
        if (message.role === "user") {
          out.push("", ...text.split("\n").map((line, i) => theme.dim(`${i === 0 ? ">" : " "} ${line}`)));
          continue;
        }
        const lines = text.split("\n");
        markdown.reset();
        out.push("", ...lines.slice(0, MAX_TEXT_LINES).map((line) => markdown.render(line)));
        if (lines.length > MAX_TEXT_LINES) out.push(theme.dim(`… ${lines.length - MAX_TEXT_LINES} more lines`));
      } else if (block.type === "tool_use") {
        const subject = toolSubject(block.name, block.input, cwd);
        const line = `${theme.green("●")} ${theme.bold(block.name)}${subject ? ` ${subject}` : ""}`;
        out.push(width === undefined ? line : cutToWidth(line, width));
      }
    }
  }
  return out;
}
