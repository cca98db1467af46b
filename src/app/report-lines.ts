/**
 * Start-up findings are printed in full while there are few; past that, the first ones and one
 * line that counts the rest and names where to see each (hundreds of lines from a large set of
 * third-party plugins on every start would bury what matters, and cost start-up time).
 */
export const START_UP_LINES = 8;

export function reportCapped(report: (line: string) => void, lines: readonly string[], rest: (count: number) => string, limit = START_UP_LINES): void {
  // One more line than the limit is printed whole rather than summarised as "1 more".
  const shown = lines.length <= limit + 1 ? lines : lines.slice(0, limit);
  if (shown.length > 0) report(shown.join("\n"));
  if (shown.length < lines.length) report(rest(lines.length - shown.length));
}
