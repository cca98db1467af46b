/**
 * Matchers (hooks.md §3.1, the v2.1.195 rule): omitted, `""` or `"*"` match everything; a string of
 * only name characters is an exact name or a `|`/`,` list of them; anything else is an unanchored,
 * case-sensitive JavaScript RegExp. `mcp__memory__.*` is therefore a regex over one server's tools,
 * while the bare `mcp__memory` is an exact name that matches nothing.
 */
import type { MatcherRule } from "./types.ts";

const EXACT = /^[A-Za-z0-9_\- ,|]+$/;
/** FileChanged and StopFailure: no hyphen, space or comma; only `|` separates. */
const NARROW_EXACT = /^[A-Za-z0-9_|]+$/;

export type CompiledMatcher = { ok: true; rule: MatcherRule } | { ok: false; rule: MatcherRule; error: string };

export function compileMatcher(matcher: string | undefined, narrow = false): CompiledMatcher {
  if (matcher === undefined || matcher === "" || matcher === "*") return { ok: true, rule: { kind: "all" } };
  if ((narrow ? NARROW_EXACT : EXACT).test(matcher)) {
    const names = matcher
      .split(narrow ? "|" : /[|,]/)
      .map((name) => name.trim())
      .filter((name) => name.length > 0);
    // `Task` is the Agent tool's name before Claude Code renamed it; hooks written for it still match.
    if (names.includes("Task") && !names.includes("Agent")) names.push("Agent");
    return { ok: true, rule: { kind: "names", names } };
  }
  try {
    return { ok: true, rule: { kind: "regex", regex: new RegExp(matcher) } };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : String(error);
    return { ok: false, rule: { kind: "broken" }, error: reason };
  }
}

/** `value` undefined means the event has no matcher field: every group runs. */
export function matcherAccepts(rule: MatcherRule, value: string | undefined): boolean {
  if (value === undefined) return rule.kind !== "broken";
  switch (rule.kind) {
    case "all":
      return true;
    case "names":
      return rule.names.includes(value);
    case "regex":
      // A fresh lastIndex each time: a `g` or `y` flag cannot be written in a matcher string, but be safe.
      rule.regex.lastIndex = 0;
      return rule.regex.test(value);
    case "broken":
      return false;
  }
}

/**
 * The literal file names a FileChanged matcher registers for watching (hooks.md §3.3): the matcher
 * split on `|`; `"*"` is a file literally named `*`. An omitted matcher registers nothing itself.
 */
export function fileWatchNames(matcher: string | undefined): string[] {
  if (matcher === undefined || matcher === "") return [];
  return matcher.split("|").map((name) => name.trim()).filter((name) => name.length > 0);
}
