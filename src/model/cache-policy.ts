/**
 * DISABLE_PROMPT_CACHING[_<FAMILY>] and ENABLE_PROMPT_CACHING_1H (spec sessions-context §8): the
 * request's cache breakpoints are taken out (gateways and models that refuse `cache_control`) or
 * given the one-hour lifetime. Applied to the encoded body: the breakpoint's JSON cannot occur
 * inside a string value (JSON escapes every quote there), so a text replacement is exact, and the
 * encoder's reuse of the history it serialized before is kept.
 */
export type CachePolicy = "5m" | "1h" | "off";

const BREAKPOINT = '"cache_control":{"type":"ephemeral"}';

export function applyCachePolicy(body: string, policy: CachePolicy): string {
  if (policy === "5m") return body;
  if (policy === "1h") return body.replaceAll(BREAKPOINT, '"cache_control":{"type":"ephemeral","ttl":"1h"}');
  return body.replaceAll(`,${BREAKPOINT}`, "").replaceAll(`${BREAKPOINT},`, "");
}

/** The policy for a model: off for all, off for its family (`claude-opus-…` → opus), else 5 m or 1 h. */
export function cachePolicyFor(caching: { off: boolean; offFamilies: readonly string[]; oneHour: boolean }): ((model: string) => CachePolicy) | undefined {
  if (!caching.off && caching.offFamilies.length === 0 && !caching.oneHour) return undefined;
  return (model) => {
    if (caching.off) return "off";
    const family = /^claude-([a-z]+)-/.exec(model)?.[1];
    if (family !== undefined && caching.offFamilies.includes(family)) return "off";
    return caching.oneHour ? "1h" : "5m";
  };
}
