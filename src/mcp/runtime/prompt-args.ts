/**
 * `/mcp__server__prompt a b "c d"`: the words after the command, in order, become the prompt's
 * declared arguments (double quotes keep spaces together; words beyond the last argument join it).
 */
import type { McpPromptInfo } from "../types.ts";

export function splitWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    const quoted = match[1];
    words.push(quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : (match[2] ?? ""));
  }
  return words;
}

export type PromptArgs = { ok: true; values: Record<string, string> } | { ok: false; message: string };

export function mapPromptArgs(prompt: McpPromptInfo, text: string): PromptArgs {
  const words = splitWords(text);
  const declared = prompt.arguments;
  const values: Record<string, string> = {};
  declared.forEach((argument, index) => {
    const isLast = index === declared.length - 1;
    const value = isLast ? words.slice(index).join(" ") : words[index];
    if (value !== undefined && value !== "") values[argument.name] = value;
  });
  const missing = declared.filter((argument) => argument.required && values[argument.name] === undefined);
  if (missing.length > 0) {
    const usage = declared.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)).join(" ");
    return {
      ok: false,
      message: `/${prompt.command} needs ${missing.map((argument) => argument.name).join(", ")}: /${prompt.command} ${usage}`,
    };
  }
  if (declared.length === 0 && words.length > 0) {
    return { ok: false, message: `/${prompt.command} takes no arguments (it was given: ${text.trim()})` };
  }
  return { ok: true, values };
}
