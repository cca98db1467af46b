/**
 * Rules written in settings that are not in force, and why: for `clew config --origins` and
 * `/permissions`. Two kinds: rules the settings loader set aside (an untrusted folder, a file that
 * does not parse, managed-only rules) and allow rules a deny or ask rule always overrules.
 */
import { compileRules } from "../permissions/rules.ts";
import { ruleOrigin } from "../permissions/reasons.ts";
import { shadowedAllows } from "../permissions/shadowing.ts";
import type { RuleInput } from "../permissions/types.ts";
import type { LoadedSettings } from "../settings/types.ts";

export interface RuleNotInForce {
  text: string;
  kind: "allow" | "ask" | "deny";
  origin: string;
  why: string;
  fix?: string;
}

export function rulesNotInForce(loaded: LoadedSettings): RuleNotInForce[] {
  const set = loaded.inactiveRules.map((rule): RuleNotInForce => ({
    text: rule.text,
    kind: rule.kind,
    origin: rule.source.file ?? rule.source.scope,
    why: rule.why,
    fix: rule.fix,
  }));
  const shadowed = shadowedAllows(compileRules(loaded.rules as RuleInput[])).map(({ rule, by }): RuleNotInForce => ({
    text: rule.text,
    kind: "allow",
    origin: ruleOrigin(rule),
    why: `the ${by.kind} rule ${by.text} in ${ruleOrigin(by)} covers everything it allows, and ${by.kind} rules take precedence`,
  }));
  return [...set, ...shadowed];
}

/** The whole reason as the model reads it, for `--verbose` approval prompts. */
export { fullReason } from "../permissions/reasons.ts";
