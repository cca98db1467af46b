/**
 * Evaluation of one Bash (or Monitor) call, spec §4.8 steps 3–7: deny rules, ask rules, safety
 * checks, allow rules and the read-only set, then the mode. Every simple command of the line is
 * judged; the whole is allowed only when each part is.
 */
import { basename, dirname } from "node:path";
import { gatherFacts, staticValue, type Facts } from "./bash-facts.ts";
import { readGateReason } from "./bash-read-gate.ts";
import { fileWrites, fsEditTargets, isReadOnlyCommand } from "./bash-readonly.ts";
import { allowMatches, denyMatches, matchCommandPattern, suggestRule } from "./bash-rules.ts";
import { globMayMatch, insideWorkingDirs, pathForms, pathMatchesAll, pathMatchesAny, type PathForms } from "./path-rules.ts";
import { isCriticalRemoval, protectedReason, removalTargets } from "./protected-paths.ts";
import * as say from "./reasons.ts";
import type { PermissionRule, RuleSet } from "./rules.ts";
import type { SimpleCommand } from "./shell-types.ts";
import { splitCommand } from "./shell-split.ts";
import { decideSandbox } from "./sandbox-rules.ts";
import { paramMatches, ruleConcernsTool } from "./tool-rules.ts";
import type { PermissionCall, PermissionContext, PermissionEvaluation } from "./types.ts";

const DANGEROUS_VARS = /^(PATH|LD_\w*|DYLD_\w*|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|GIT_\w*|NODE_OPTIONS|PYTHON\w*|PERL5\w*|RUBY\w*|PAGER|EDITOR|VISUAL|MANPAGER|LESSOPEN|LESSCLOSE|BROWSER|SSH_ASKPASS|SUDO_ASKPASS|HOME|TMPDIR|ZDOTDIR|HISTFILE)$/;
const DECLARATIONS = new Set(["export", "local", "declare", "typeset", "readonly"]);

/** A plain `NAME=value` a later arithmetic expansion cannot turn into a command and no tool reads as configuration. */
function harmlessAssignment(raw: string): boolean {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$/s.exec(raw);
  if (!match) return /^[A-Za-z_][A-Za-z0-9_]*$/.test(raw);
  return !DANGEROUS_VARS.test(match[1] ?? "") && !/[$`()[\]]/.test(match[2] ?? "");
}

function globHits(rule: PermissionRule, forms: PathForms, context: PermissionContext): boolean {
  return [forms.resolved, forms.real].some((path) => globMayMatch(rule, dirname(path), basename(path), false, context));
}

/** The first deny (or ask) rule that hits the line, what it hit, and in which command. */
function ruleHit(rules: readonly PermissionRule[], call: PermissionCall, facts: Facts, context: PermissionContext): { rule: PermissionRule; detail?: string; command?: SimpleCommand } | undefined {
  for (const rule of rules) {
    if (rule.target.kind === "path") {
      const uses = rule.tool === "Read" ? [...facts.reads, ...facts.writes] : facts.writes;
      const use = uses.find((candidate) => candidate.forms.some((forms) => pathMatchesAny(rule, forms, context) || (candidate.glob && globHits(rule, forms, context))));
      if (use) return { rule, detail: `${facts.writes.includes(use) ? "it writes" : "it reads"} ${use.word.value}`, command: use.command };
      continue;
    }
    if (!ruleConcernsTool(rule, call.toolName)) continue;
    const target = rule.target;
    if (target.kind === "any") return { rule };
    if (target.kind === "param" && paramMatches(target.param, target.value, call.input)) return { rule };
    if (target.kind !== "command") continue;
    if (matchCommandPattern(target.pattern, facts.whole)) return { rule };
    const hit = facts.commands.find((cmd) => denyMatches(target.pattern, cmd));
    if (hit) return { rule, detail: `because of \`${hit.argv.join(" ")}\``, command: hit };
  }
  return undefined;
}

function criticalRemoval(facts: Facts, context: PermissionContext): string | undefined {
  const dirs = [facts.base, ...facts.cdTargets];
  for (const cmd of facts.commands) {
    const target = removalTargets(cmd.words).find((word) => dirs.some((dir) => isCriticalRemoval(word, dir, context)));
    if (target) return target.raw;
  }
  return undefined;
}

/**
 * Step 5: what must be asked whatever the rules say (`critical` even in bypassPermissions mode).
 * `contained`: a check the OS sandbox enforces by itself (writes outside the working directories),
 * which a sandboxed command therefore need not ask about.
 */
function safetyCheck(facts: Facts, rules: RuleSet, context: PermissionContext): { why: string; critical: boolean; contained?: true } | undefined {
  const critical = criticalRemoval(facts, context);
  if (critical) {
    return { why: `it removes ${critical}, a critical path (the root, a top-level or home directory, a working directory or a parent of one); no rule can approve that`, critical: true };
  }
  const [problem] = facts.problems;
  if (problem) return { why: `${problem}, so its commands cannot be checked`, critical: false };
  for (const write of facts.writes) {
    const reason = write.forms.map((forms) => protectedReason(forms.resolved) ?? protectedReason(forms.real)).find((text) => text);
    if (reason) return { why: `it writes ${write.word.raw}: ${reason}`, critical: false };
  }
  for (const cmd of facts.commands) {
    for (const { target } of fileWrites(cmd)) {
      if (target.tilde || target.dynamic) return { why: `it writes to ${target.raw}; redirections to paths with ~, variables or globs are never approved automatically`, critical: false, contained: true };
      if (facts.changesDir && !target.value.startsWith("/")) return { why: `it changes directory and then writes to ${target.raw}`, critical: false, contained: true };
    }
    if (facts.changesDir && cmd.argv[0] === "git") return { why: "it runs git after changing directory", critical: false, contained: true };
  }
  const editAllows = rules.allow.filter((rule) => rule.target.kind === "path" && rule.tool === "Edit");
  for (const write of facts.writes) {
    if (!write.redirect) continue;
    const outside = write.forms.find((forms) => !insideWorkingDirs(forms, context) && !editAllows.some((rule) => pathMatchesAll(rule, forms, context)));
    if (outside) return { why: `it writes ${write.word.value}, outside the working directories`, critical: false, contained: true };
  }
  return undefined;
}

/**
 * Read-only commands run without a rule only on paths inside the working directories, as the
 * Read tool does: `cat ~/.ssh/id_rsa` or `ls /etc` needs approval like a Read there would.
 */
function pathsInside(cmd: SimpleCommand, facts: Facts, context: PermissionContext): boolean {
  const targets = facts.readsOf.get(cmd)?.targets ?? [];
  if (targets.some((target) => target.word.tilde || !staticValue(target.word))) return false;
  const uses = [...facts.reads, ...facts.listed].filter((use) => use.command === cmd);
  return uses.every((use) => use.forms.every((forms) => insideWorkingDirs(forms, context)));
}

function readOnlyHere(cmd: SimpleCommand, context: PermissionContext, facts?: Facts): boolean {
  if (fileWrites(cmd).length > 0) return false;
  if (cmd.argv.length === 0) return cmd.assignments.every(harmlessAssignment);
  const name = cmd.argv[0] ?? "";
  if (DECLARATIONS.has(name) && cmd.wrappers.length === 0 && cmd.assignments.length === 0) {
    return cmd.words.slice(1).every((word) => !word.dynamic && (/^-[xrgaAp]+$/.test(word.value) || harmlessAssignment(word.raw)));
  }
  if (!isReadOnlyCommand(cmd)) return false;
  // The repository's own configuration can make git's reads run a program (git-config-risk.ts).
  if (name === "git" && context.files?.gitConfigRisk?.(facts?.base ?? context.shellCwd ?? context.cwd)) return false;
  if (facts && (!pathsInside(cmd, facts, context) || facts.optionGlobs.has(cmd))) return false;
  if (name !== "cd") return true;
  const target = cmd.words[1];
  const here = { ...context, cwd: facts?.base ?? context.shellCwd ?? context.cwd };
  return target !== undefined && staticValue(target) && !target.tilde && insideWorkingDirs(pathForms(target.value, here), context);
}

function redirectsApproved(cmd: SimpleCommand, facts: Facts, editAllows: readonly PermissionRule[], context: PermissionContext): boolean {
  const writes = facts.writes.filter((write) => write.command === cmd && write.redirect);
  return writes.every((write) =>
    write.forms.every(
      (forms) =>
        editAllows.some((rule) => pathMatchesAll(rule, forms, context)) ||
        (context.mode === "acceptEdits" && insideWorkingDirs(forms, context)) ||
        context.mode === "bypassPermissions",
    ),
  );
}

/** acceptEdits: file commands and redirections whose every path is known and inside the working directories. */
function editInScope(cmd: SimpleCommand, facts: Facts, context: PermissionContext): boolean {
  const writes = facts.writes.filter((write) => write.command === cmd);
  const targets = fsEditTargets(cmd);
  if (targets === undefined && !(isReadOnlyCommand(cmd) && writes.length > 0)) return false;
  if (facts.changesDir || (targets ?? []).some((word) => !staticValue(word) || word.tilde)) return false;
  return writes.every((write) => write.forms.every((forms) => insideWorkingDirs(forms, context)));
}

/** A suggested rule must not approve more than intended: no `*` other than the trailing ` *`. */
function literalSuggestion(rule: string | undefined): rule is string {
  return rule !== undefined && !rule.slice("Bash(".length, -1).replace(/ \*$/, "").includes("*");
}

/** Allow rules for Bash that cover `commands` (or the whole tool), from `rules`. */
function allowsFor<Rule extends PermissionRule>(rules: readonly Rule[], call: PermissionCall, commands: readonly SimpleCommand[]): Rule[] {
  return rules.filter((rule) => {
    const target = rule.target;
    if (rule.kind !== "allow" || !ruleConcernsTool(rule, call.toolName)) return false;
    return target.kind === "any" || (target.kind === "command" && commands.some((cmd) => allowMatches(target.pattern, cmd)));
  });
}

export async function evaluateShell(rules: RuleSet, call: PermissionCall, context: PermissionContext): Promise<PermissionEvaluation> {
  const input = call.input as { command?: unknown } | null;
  const command = typeof input?.command === "string" ? input.command : call.subject;
  const split = await splitCommand(command);
  const facts = gatherFacts(command, split.commands, split.problems.map((problem) => problem.detail), context);
  const result = decideShell(rules, call, facts, context);
  if (result.evaluation.behavior === "allow") return result.evaluation;
  const overruled = (by: "deny" | "ask" | "read", commands: readonly SimpleCommand[]) =>
    say.withUnapplied(result.evaluation, allowsFor(rules.allow, call, commands).map((rule) => say.overruledNote(rule, by)));
  switch (result.by) {
    case "deny":
    case "ask":
      return overruled(result.by, result.command ? [result.command] : facts.commands);
    case "read":
      return overruled("read", facts.commands);
    default:
      return say.withUnapplied(result.evaluation, allowsFor(rules.inactive ?? [], call, result.needs ?? facts.commands).map(say.inactiveNote));
  }
}

interface ShellDecision {
  evaluation: PermissionEvaluation;
  /** What decided, when it was not the absence of an allow rule. */
  by?: "deny" | "ask" | "read";
  command?: SimpleCommand;
  /** The commands nothing approved. */
  needs?: SimpleCommand[];
}

function decideShell(rules: RuleSet, call: PermissionCall, facts: Facts, context: PermissionContext): ShellDecision {
  const denied = ruleHit(rules.deny, call, facts, context);
  if (denied) return { evaluation: say.deniedByRule(call, denied.rule, denied.detail), by: "deny", command: denied.command };
  // Spec §7.3: a command the OS sandbox contains runs without a prompt (never in plan mode); a bare
  // `Bash` ask rule yields to it, a content-scoped one (`Bash(git push *)`) does not.
  // Only the Bash tool runs through the sandbox (Monitor and PowerShell do not).
  const sandbox = context.sandbox?.autoAllow === true && context.mode !== "plan" && call.toolName === "Bash" ? decideSandbox(context.sandbox, call.input, facts.whole, facts.commands) : undefined;
  const contained = sandbox?.sandboxed === true;
  const askRules = contained ? rules.ask.filter((rule) => !(rule.target.kind === "any" && ruleConcernsTool(rule, call.toolName))) : rules.ask;
  const asked = ruleHit(askRules, call, facts, context);
  if (asked) return { evaluation: say.askedByRule(call, asked.rule, asked.detail), by: "ask", command: asked.command };
  // Read deny rules hold in every mode, bypassPermissions included.
  const reads = readGateReason(facts, rules, context);
  if (reads) return { evaluation: say.needsApproval(call, reads), by: "read" };

  const unsafe = safetyCheck(facts, rules, context);
  if (unsafe && (unsafe.critical || context.mode !== "bypassPermissions") && !(contained && unsafe.contained)) return { evaluation: say.needsApproval(call, unsafe.why) };

  const allowRules = rules.allow.filter((rule) => ruleConcernsTool(rule, call.toolName));
  const editAllows = rules.allow.filter((rule) => rule.target.kind === "path" && rule.tool === "Edit");
  const toolWide = allowRules.find((rule) => rule.target.kind === "any");
  const approvedBy = new Map<SimpleCommand, PermissionRule>();
  const needs: SimpleCommand[] = [];
  for (const cmd of facts.commands) {
    if (cmd.delegates && !cmd.exactOnly && fileWrites(cmd).length === 0) continue;
    // An exact rule for `find … -exec CMD ;` or `watch CMD` names the command it runs.
    const parentRule = cmd.parent ? approvedBy.get(cmd.parent) : undefined;
    const rule = parentRule ?? allowRules.find((candidate) => candidate.target.kind === "command" && allowMatches(candidate.target.pattern, cmd)) ?? toolWide;
    // A rule for the command says nothing about files it redirects into: those are file writes,
    // approved like an edit (an Edit allow rule, or acceptEdits inside the working directories).
    // A tool-wide `Bash` allow covers everything a command may do, `> file` included (it could as
    // well run `tee file`); writes outside the working directories were stopped by the safety check.
    if (rule && (rule === toolWide || redirectsApproved(cmd, facts, editAllows, context))) approvedBy.set(cmd, rule);
    else if (!readOnlyHere(cmd, context, facts)) needs.push(cmd);
  }
  if (needs.length === 0) {
    const [rule] = approvedBy.values();
    return { evaluation: rule ? say.allowedByRule(rule) : say.allowed("read-only commands") };
  }

  if (contained && context.mode !== "bypassPermissions") return { evaluation: say.allowed("the command runs inside the OS sandbox, which keeps its writes to the working directories and its network to the allowed hosts (sandbox.autoAllowBashIfSandboxed)") };
  switch (context.mode) {
    case "bypassPermissions":
      return { evaluation: say.allowed("bypassPermissions mode") };
    case "acceptEdits":
      if (needs.every((cmd) => editInScope(cmd, facts, context))) return { evaluation: say.allowed("acceptEdits mode allows file changes inside the working directories") };
      break;
    case "plan":
      return { evaluation: say.planModeDenied(call), needs };
    default:
      break;
  }
  const suggestions = [...new Set(needs.filter((cmd) => !cmd.parent).map(suggestRule).filter(literalSuggestion))].slice(0, 5);
  const shown = needs.slice(0, 3).map((cmd) => `\`${cmd.argv.join(" ")}\``).join(", ");
  const risk = needs.some((cmd) => cmd.argv[0] === "git") ? context.files?.gitConfigRisk?.(facts.base) : undefined;
  const why = risk ? `; git is not read-only here: this repository's ${risk.file} sets ${risk.setting}, which runs a program` : "";
  return { evaluation: say.notAllowed(call, `no allow rule or read-only check covers ${shown}${needs.length > 3 ? " and more" : ""}${why}`, suggestions), needs };
}
