/**
 * Text clew adds to a user message for the model (reminders, loop notes) is wrapped in
 * <system-reminder> tags, so the model and clew itself can tell it apart from what the user typed.
 */
const OPEN = "<system-reminder>";
const CLOSE = "</system-reminder>";

export function systemNote(lines: string | readonly string[]): string {
  const body = typeof lines === "string" ? lines : lines.join("\n");
  return `${OPEN}\n${body}\n${CLOSE}`;
}

export function isSystemNote(text: string): boolean {
  return text.startsWith(OPEN);
}
