/**
 * The permission engine: `evaluate(rules, call, context)` decides allow, ask or deny for one
 * tool call, following spec §4.8 steps 3–7 in order — deny rules, ask rules, safety checks,
 * allow rules (and the built-in allowances), then the mode's default. Hooks (step 2) and the
 * prompt (step 8) live elsewhere. Pure: the file system is reached only through
 * `context.realpath`, and the same inputs always give the same decision.
 */
import { basename, isAbsolute, resolve } from "node:path";
import { matchCommandPattern } from "./bash-rules.ts";
import { escapePathPattern, globMayMatch, insideWorkingDirs, pathMatchesAll, pathMatchesAny, realpathDeep, type PathForms } from "./path-rules.ts";
import { isPreapprovedUrl } from "./preapproved-hosts.ts";
import { protectedReason } from "./protected-paths.ts";
import * as say from "./reasons.ts";
import { canonicalToolName, compileRules, type PermissionRule, type RuleSet } from "./rules.ts";
import { agentMatches, domainMatches, EDIT_TOOLS, paramMatches, READ_TOOLS, ruleConcernsTool, SHELL_TOOLS, skillMatches, urlHost } from "./tool-rules.ts";
import type { PermissionCall, PermissionContext, PermissionEvaluation } from "./types.ts";

/** Tools that need no permission by default (spec §5), besides reads inside the working directories. */
const NO_PERMISSION = new Set([
  "Agent", "TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TaskOutput", "TaskStop", "BashOutput",
  "KillShell", "ToolSearch", "WaitForMcpServers", "ListMcpResourcesTool", "ReadMcpResourceTool", "EnterPlanMode",
  "ListAgents", "CronList",
]);
/** Tools that ask by default whatever their access (spec §5). */
const NEEDS_PERMISSION = new Set([
  "Bash", "Edit", "Write", "NotebookEdit", "MultiEdit", "WebFetch", "WebSearch", "Skill", "ExitPlanMode", "PowerShell",
  "Monitor", "EnterWorktree", "Workflow",
]);
/** Tools whose whole point is a human's answer: never approved without one. */
const NEEDS_USER = new Set(["AskUserQuestion"]);

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value: unknown = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/** The path of a file tool call, as written and resolved (the tool's subject is already absolute). */
function fileForms(call: PermissionCall, context: PermissionContext): PathForms | undefined {
  const written = field(call.input, "file_path") ?? field(call.input, "notebook_path") ?? field(call.input, "path");
  const subject = call.subject !== "" ? call.subject : written;
  if (subject === undefined) return READ_TOOLS.has(call.toolName) ? fileForms({ ...call, subject: context.cwd }, context) : undefined;
  const resolved = resolve(context.cwd, subject.startsWith("~/") ? `${context.homeDir}/${subject.slice(2)}` : subject);
  const asWritten = written !== undefined && isAbsolute(written) ? written : written !== undefined && !written.startsWith("~") ? `${context.cwd}/${written}` : resolved;
  return { written: asWritten, resolved, real: realpathDeep(resolved, context.realpath) };
}

function ruleHits(rule: PermissionRule, call: PermissionCall, forms: PathForms | undefined, context: PermissionContext): boolean {
  if (!ruleConcernsTool(rule, call.toolName)) return false;
  const target = rule.target;
  switch (target.kind) {
    case "any":
      return true;
    case "param":
      return paramMatches(target.param, target.value, call.input);
    case "path": {
      if (!forms) return false;
      if (rule.kind === "allow") return pathMatchesAll(rule, forms, context);
      // Grep's `glob` filter reads whatever files it names under the search path.
      const glob = call.toolName === "Grep" ? field(call.input, "glob") : undefined;
      return pathMatchesAny(rule, forms, context) || (glob !== undefined && globMayMatch(rule, forms.resolved, basename(glob), true, context));
    }
    case "domain":
      return domainMatches(target.pattern, field(call.input, "url") ?? call.subject);
    case "name":
      return rule.tool === "Agent" ? agentMatches(target.pattern, call.input) : skillMatches(target.pattern, call.input, rule.kind);
    case "command":
      return matchCommandPattern(target.pattern, field(call.input, "command") ?? call.subject);
  }
}

function suggestionsFor(call: PermissionCall, tool: string, forms: PathForms | undefined): string[] | undefined {
  if (tool === "WebFetch") {
    const host = urlHost(field(call.input, "url") ?? call.subject)?.host;
    return host ? [`WebFetch(domain:${host})`] : undefined;
  }
  if (READ_TOOLS.has(tool) && forms) {
    const dir = tool === "Read" ? resolve(forms.resolved, "..") : forms.resolved;
    return [`Read(/${escapePathPattern(dir)}/**)`];
  }
  if (tool === "Skill") {
    const skill = field(call.input, "skill");
    return skill ? [`Skill(${skill.replace(/^\//, "")})`] : undefined;
  }
  if (EDIT_TOOLS.has(tool) || tool === "ExitPlanMode" || NEEDS_USER.has(tool)) return undefined;
  return [tool];
}

function evaluateTool(rules: RuleSet, call: PermissionCall, context: PermissionContext): PermissionEvaluation {
  const tool = canonicalToolName(call.toolName);
  const normalised: PermissionCall = { ...call, toolName: tool };
  const forms = READ_TOOLS.has(tool) || EDIT_TOOLS.has(tool) ? fileForms(normalised, context) : undefined;
  const result = decideTool(rules, normalised, forms, context);
  if (result.behavior === "allow") return result;
  const hits = (rule: PermissionRule) => ruleHits(rule, normalised, forms, context);
  const decidedBy = result.rule === undefined ? undefined : rules.deny.some((rule) => rule.text === result.rule) ? "deny" : rules.ask.some((rule) => rule.text === result.rule) ? "ask" : undefined;
  if (decidedBy) return say.withUnapplied(result, rules.allow.filter(hits).map((rule) => say.overruledNote(rule, decidedBy)));
  return say.withUnapplied(result, (rules.inactive ?? []).filter((rule) => rule.kind === "allow" && hits(rule)).map(say.inactiveNote));
}

function decideTool(rules: RuleSet, normalised: PermissionCall, forms: PathForms | undefined, context: PermissionContext): PermissionEvaluation {
  const tool = normalised.toolName;
  const call = normalised;
  const isEdit = EDIT_TOOLS.has(tool);
  const bypass = context.mode === "bypassPermissions";

  const denied = rules.deny.find((rule) => ruleHits(rule, normalised, forms, context));
  if (denied) return say.deniedByRule(normalised, denied);
  const asked = rules.ask.find((rule) => ruleHits(rule, normalised, forms, context));
  if (asked) return say.askedByRule(normalised, asked);

  if (NEEDS_USER.has(tool) || call.requiresUserInteraction === true) return say.needsApproval(normalised, "it needs the user's own answer");
  if (isEdit && forms && !bypass) {
    const reason = protectedReason(forms.resolved) ?? protectedReason(forms.real);
    if (reason) return say.needsApproval(normalised, `${reason}; writes there are never approved automatically`);
    const pathAllowed = rules.allow.some((rule) => rule.target.kind === "path" && ruleHits(rule, normalised, forms, context));
    if (!insideWorkingDirs(forms, context) && !pathAllowed) return say.needsApproval(normalised, "the path is outside the working directories");
  }

  const allowedBy = rules.allow.find((rule) => ruleHits(rule, normalised, forms, context));
  if (allowedBy) return say.allowedByRule(allowedBy);
  if (tool === "WebFetch" && isPreapprovedUrl(field(call.input, "url") ?? call.subject)) return say.allowed("the host is one of the documentation sites WebFetch may read without asking");
  if (READ_TOOLS.has(tool) && forms && insideWorkingDirs(forms, context)) return say.allowed("reading inside the working directories");
  if (NO_PERMISSION.has(tool)) return say.allowed(`${tool} needs no permission`);
  const readOnlyTool = !READ_TOOLS.has(tool) && !NEEDS_PERMISSION.has(tool) && !tool.startsWith("mcp__") && call.access === "read";
  if (readOnlyTool) return say.allowed(`${tool} only reads`);

  switch (context.mode) {
    case "bypassPermissions":
      return say.allowed("bypassPermissions mode");
    case "acceptEdits":
      if (isEdit) return say.allowed("acceptEdits mode allows edits inside the working directories");
      break;
    case "plan":
      if ((call.access === "write" || call.access === "exec") && tool !== "ExitPlanMode") return say.planModeDenied(normalised);
      break;
    default:
      break;
  }
  const why = READ_TOOLS.has(tool) ? "the path is outside the working directories" : isEdit ? "file edits need approval in this mode" : "no allow rule covers it";
  return say.notAllowed(normalised, why, suggestionsFor(normalised, tool, forms));
}

/** Decides one tool call. Asks become denials in dontAsk mode. */
export async function evaluate(rules: RuleSet, call: PermissionCall, context: PermissionContext): Promise<PermissionEvaluation> {
  const tool = canonicalToolName(call.toolName);
  // The shell gate (parser, read classification) loads with the first command, not at start-up.
  const result = SHELL_TOOLS.has(tool) ? await (await import("./bash-eval.ts")).evaluateShell(rules, call, context) : evaluateTool(rules, call, context);
  return result.behavior === "ask" && context.mode === "dontAsk" ? say.dontAskDenied(result) : result;
}

/**
 * Whether Read deny rules cover `path` (absolute): for search tools, which must leave such files
 * out of their results (spec §4.4) — the gate cannot see what a directory search will open.
 */
export function readDenied(rules: RuleSet, path: string, context: PermissionContext): boolean {
  const denies = rules.deny.filter((rule) => rule.target.kind === "path" && rule.tool === "Read");
  // Most sessions have no Read deny: then no file a search finds needs resolving at all.
  if (denies.length === 0) return false;
  const forms: PathForms = { written: path, resolved: resolve(path), real: realpathDeep(resolve(path), context.realpath) };
  return denies.some((rule) => pathMatchesAny(rule, forms, context));
}

/**
 * Whether a rule written in permission syntax (`Bash(git *)`, `Edit(src/**)`) covers a call, with
 * deny semantics (any form of the call matching is enough): for hooks' `if` conditions.
 */
export async function ruleCovers(ruleText: string, call: PermissionCall, context: PermissionContext): Promise<boolean> {
  const rules = compileRules([{ text: ruleText, kind: "deny", source: { scope: "session", root: context.cwd } }]);
  if (rules.deny.length === 0) return false;
  const result = await evaluate(rules, call, { ...context, mode: "default" });
  return result.behavior === "deny" && result.rule === ruleText;
}
