/**
 * The read gate for Bash: a command line that could bring a Read-denied file's content to the
 * model without naming it — a recursive search over a directory that holds it, git showing a
 * tracked copy, files chosen at run time — needs approval, in every mode. Named paths are checked
 * by the deny rules themselves (bash-eval.ts); this covers what they cannot see.
 */
import type { Facts } from "./bash-facts.ts";
import { trackedDenied, treeReach, deniedReads, type Reach } from "./read-scope.ts";
import { ruleOrigin } from "./reasons.ts";
import type { RuleSet } from "./rules.ts";
import type { PermissionContext } from "./types.ts";

const USE_TOOLS = "use the Grep, Glob and Read tools instead, which leave denied files out";

function covered(reach: Reach): string {
  return `${reach.rule.text} in ${ruleOrigin(reach.rule)}`;
}

function display(path: string, base: string): string {
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}

/** Why the line must be approved because of what it may read, or undefined. */
export function readGateReason(facts: Facts, rules: RuleSet, context: PermissionContext): string | undefined {
  const denied = deniedReads(rules.deny, context);
  if (denied.length === 0) return undefined;
  for (const use of facts.reads) {
    if (use.kind !== "tree") continue;
    for (const forms of use.forms) {
      const reach = treeReach(forms, use.follow, denied, context);
      if (!reach) continue;
      const what = `\`${use.command.argv.join(" ")}\` reads ${use.word.raw} recursively`;
      if ("tooLarge" in reach) return `${what}, a tree too large to check for files that ${covered(reach)} denies; ${USE_TOOLS}`;
      return `${what}, which holds ${display(reach.path, facts.base)} (denied by ${covered(reach)}); ${USE_TOOLS}`;
    }
  }
  const [unknown] = facts.unknown;
  if (unknown) return `${unknown.why.replace(/^it /, `\`${unknown.command.argv.join(" ")}\` `)}, and Read deny rules are in force; ${USE_TOOLS}`;
  const [git] = facts.gitTracked;
  if (git) {
    const view = context.files;
    const shown = `\`${git.argv.join(" ")}\``;
    if (!view) return `${shown} can show files git tracks, and whether git tracks a denied file cannot be checked here; ${USE_TOOLS}`;
    const tracked = view.gitTracked(facts.base);
    if (tracked === undefined) {
      for (const use of facts.outsideRepo) {
        const reach = use.forms.map((forms) => treeReach(forms, use.follow, denied, context)).find((found) => found);
        if (reach) return `${shown} outside a git repository compares ${use.word.raw}, which holds ${display(reach.path, facts.base)} (denied by ${covered(reach)}); ${USE_TOOLS}`;
      }
      return undefined;
    }
    const path = trackedDenied(tracked, denied);
    if (path) {
      const rule = denied.find((entry) => entry.covers(path))?.rule;
      return `git tracks ${display(path, facts.base)}${rule ? ` (denied by ${rule.text} in ${ruleOrigin(rule)})` : ""}, and ${shown} can show its content; ${USE_TOOLS}`;
    }
    // A file that left the index stays in history, where `git log -p` and `git show` still find it.
    const inHistory = denied.filter((entry) => view.gitHistoryHas(facts.base, [entry.pattern]));
    if (inHistory[0]) {
      return `git's history holds a file that ${inHistory[0].rule.text} in ${ruleOrigin(inHistory[0].rule)} denies, and ${shown} can show old versions; ${USE_TOOLS}`;
    }
  }
  return undefined;
}
