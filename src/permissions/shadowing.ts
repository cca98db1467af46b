/**
 * Allow rules that can never take effect because a deny or ask rule covers everything they
 * would allow (`Bash(npm *)` denied shadows `Bash(npm test *)` allowed). For `clew config
 * --origins`; a call-by-call account is in the denial reasons themselves.
 */
import { globLibrary } from "../util/glob-library.ts";
import { matchCommandPattern } from "./bash-rules.ts";
import type { PermissionRule, RuleSet } from "./rules.ts";
import { toolNameMatches } from "./rules.ts";

function covers(over: PermissionRule, rule: PermissionRule): boolean {
  if (!toolNameMatches(over.tool, rule.tool)) return false;
  const [outer, inner] = [over.target, rule.target];
  if (outer.kind === "any") return true;
  if (outer.kind === "command" && inner.kind === "command") return matchCommandPattern(outer.pattern, inner.pattern);
  if (outer.kind === "path" && inner.kind === "path") {
    // `/x` patterns are anchored at their own file's root: compare only rules anchored alike.
    if (over.source.root !== rule.source.root) return false;
    return outer.pattern === inner.pattern || globLibrary().minimatch(inner.pattern, outer.pattern, { dot: true });
  }
  if (outer.kind === "domain" && inner.kind === "domain") return outer.pattern === inner.pattern || (outer.pattern.startsWith("*.") && inner.pattern.endsWith(outer.pattern.slice(1)));
  return outer.kind === inner.kind && JSON.stringify(outer) === JSON.stringify(inner);
}

export interface Shadowed {
  rule: PermissionRule;
  by: PermissionRule;
}

export function shadowedAllows(rules: RuleSet): Shadowed[] {
  return rules.allow.flatMap((rule) => {
    const by = rules.deny.find((deny) => covers(deny, rule)) ?? rules.ask.find((ask) => covers(ask, rule));
    return by ? [{ rule, by }] : [];
  });
}
