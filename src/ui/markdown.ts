/**
 * Light, line-based Markdown for streamed model text: headings, lists, quotes, fenced code,
 * inline code and bold. Each line is styled on its own (the renderer commits whole lines), so
 * only the fence state carries over. Without colour the text is printed as written: Markdown is
 * already readable plain text, and stripping its marks would lose the emphasis.
 */
import type { Theme } from "./theme.ts";

const FENCE = /^\s*(`{3,}|~{3,})/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const NUMBERED = /^(\s*)(\d+[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

export class MarkdownLines {
  private fence: string | undefined;

  constructor(
    private readonly theme: Theme,
    /** Terminal columns, when known: a rule is never wider (the renderer wraps everything else). */
    private readonly width: () => number | undefined = () => undefined,
  ) {}

  /** Styles one complete line (without its newline). */
  render(line: string): string {
    const fence = FENCE.exec(line)?.[1];
    if (fence !== undefined && (this.fence === undefined || fence.startsWith(this.fence))) {
      this.fence = this.fence === undefined ? fence : undefined;
      return this.theme.dim(line);
    }
    if (this.fence !== undefined) return this.theme.cyan(line);
    if (!this.theme.enabled) return line;
    const t = this.theme;
    const heading = HEADING.exec(line);
    if (heading) return t.bold(inline(heading[2] ?? "", t));
    if (RULE.test(line)) return t.dim("─".repeat(Math.min(40, this.width() ?? 40)));
    const bullet = BULLET.exec(line);
    if (bullet) return `${bullet[1]}${t.dim("•")} ${inline(bullet[2] ?? "", t)}`;
    const numbered = NUMBERED.exec(line);
    if (numbered) return `${numbered[1]}${t.dim(numbered[2] ?? "")} ${inline(numbered[3] ?? "", t)}`;
    const quote = QUOTE.exec(line);
    if (quote) return t.dim(`│ ${t.italic(quote[1] ?? "")}`);
    return inline(line, t);
  }

  /** A new message starts outside any fence, whatever the last one left open. */
  reset(): void {
    this.fence = undefined;
  }
}

/** `code` and **bold**; code spans are styled first so their contents are left alone. */
export function inline(text: string, theme: Theme): string {
  if (!theme.enabled) return text;
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) => {
      if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) return theme.cyan(part.slice(1, -1));
      return part.replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_match, a: string | undefined, b: string | undefined) => theme.bold(a ?? b ?? ""));
    })
    .join("");
}
