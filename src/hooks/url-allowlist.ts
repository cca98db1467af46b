/**
 * `allowedHttpHookUrls` entries: an exact URL, or a pattern where `*` stands for any run of
 * characters (`https://hooks.example.com/*`). Everything else in the pattern is literal.
 */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    if (!pattern.includes("*")) return pattern === url;
    const source = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join(".*");
    return new RegExp(`^${source}$`).test(url);
  });
}
