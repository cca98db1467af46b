/** Keeps the head and tail of a long text and says how much was cut in between. */
export function truncateMiddle(text: string, maxChars: number, note = ""): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const omitted = text.length - head - tail;
  const marker = `\n\n... [${omitted} characters truncated${note}] ...\n\n`;
  return text.slice(0, head) + marker + (tail > 0 ? text.slice(text.length - tail) : "");
}
