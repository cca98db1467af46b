/**
 * Permission rule strings (`Bash(npm test *)`, `Read(./.env)`, `mcp__github__*`) parsed into
 * typed rules. Problems become warnings, never exceptions, and a deny or ask rule that cannot be
 * read precisely is widened (to the whole tool, or to every tool) rather than dropped: a broken
 * settings file must never disable a deny.
 */
import type { InactiveRuleInput, RuleInput, RuleKind, RuleSource, RuleWarning } from "./types.ts";

export type RuleTarget =
  /** Every call of the tool (`Tool`, `Tool(*)`, name globs). */
  | { kind: "any" }
  /** Bash/Monitor/PowerShell command pattern, legacy `:*` already rewritten to ` *`. */
  | { kind: "command"; pattern: string }
  /** Read/Edit gitignore-style path pattern. */
  | { kind: "path"; pattern: string }
  /** WebFetch `domain:` host pattern. */
  | { kind: "domain"; pattern: string }
  /** `Tool(param:value)`: a top-level scalar input field, `*` wildcards (deny/ask only). */
  | { kind: "param"; param: string; value: string }
  /** Agent subagent type or Skill name (`name`, `name *`). */
  | { kind: "name"; pattern: string };

export interface PermissionRule {
  /** The rule as written in settings. */
  text: string;
  kind: RuleKind;
  source: RuleSource;
  /** Canonical tool name, or a name glob such as `mcp__github__*` or `*`. */
  tool: string;
  target: RuleTarget;
}

/** A rule present in settings but not in force, with why and what would put it in force. */
export interface InactiveRule extends PermissionRule {
  why: string;
  fix: string;
}

export interface RuleSet {
  allow: PermissionRule[];
  ask: PermissionRule[];
  deny: PermissionRule[];
  warnings: RuleWarning[];
  /** Never applied: consulted only to say why a call that one of them covers was not allowed. */
  inactive?: InactiveRule[];
}

/** Canonical tool names (spec §5) plus clew's own, for "unknown tool" warnings. */
export const KNOWN_TOOLS: readonly string[] = [
  "Agent", "AskUserQuestion", "Bash", "BashOutput", "Edit", "EnterPlanMode", "ExitPlanMode", "EnterWorktree",
  "ExitWorktree", "Glob", "Grep", "KillShell", "ListMcpResourcesTool", "ReadMcpResourceTool", "LSP", "Monitor",
  "MultiEdit", "NotebookEdit", "NotebookRead", "PowerShell", "Read", "Skill", "TaskCreate", "TaskGet", "TaskList",
  "TaskUpdate", "TodoWrite", "TaskOutput", "TaskStop", "ToolSearch", "WaitForMcpServers", "WebFetch", "WebSearch",
  "Write", "CronCreate", "CronDelete", "CronList", "SendMessage", "ListAgents", "Workflow", "EndConversation",
];

const ALIASES: Record<string, string> = { Task: "Agent" };
const COMMAND_TOOLS = new Set(["Bash", "Monitor", "PowerShell"]);
/** Path rules on these are never consulted (spec §4.4): deny/ask become the family rule, allow is ignored. */
const IGNORED_PATH_TOOLS: Record<string, "Read" | "Edit"> = {
  Write: "Edit", NotebookEdit: "Edit", MultiEdit: "Edit", Glob: "Read", Grep: "Read", LSP: "Read", NotebookRead: "Read",
};
/** Parameter names per tool, so that `Agent(plugin:reviewer)` stays an agent name. */
const KNOWN_PARAMS: Record<string, readonly string[]> = {
  Bash: ["command", "run_in_background", "dangerouslyDisableSandbox", "timeout", "description"],
  Monitor: ["command", "run_in_background", "timeout", "description"],
  PowerShell: ["command", "run_in_background", "dangerouslyDisableSandbox", "timeout", "description"],
  Read: ["file_path", "offset", "limit", "pages"],
  Edit: ["file_path", "old_string", "new_string", "replace_all"],
  Agent: ["description", "prompt", "subagent_type", "model", "isolation", "run_in_background", "name", "team_name", "mode", "cwd"],
  Skill: ["skill", "args"],
  WebFetch: ["url", "prompt"],
  WebSearch: ["query", "allowed_domains", "blocked_domains"],
};
/** Fields a parameter rule may not name: the rule's own specifier already covers them. */
const PRIMARY_FIELDS: Record<string, string> = {
  Bash: "command", Monitor: "command", PowerShell: "command", Read: "file_path", Edit: "file_path",
  Write: "file_path", NotebookEdit: "notebook_path", MultiEdit: "file_path", Grep: "path", Glob: "path", WebFetch: "url",
};

const RULE_SHAPE = /^([^()\s]+)(?:\((.*)\))?$/s;
const PARAM_SHAPE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/s;

export function canonicalToolName(name: string): string {
  return ALIASES[name] ?? name;
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "s");
}

/** Whether a rule's tool (a name or a name glob) covers `toolName`. */
export function toolNameMatches(ruleTool: string, toolName: string): boolean {
  if (!ruleTool.includes("*")) return ruleTool === toolName;
  return globToRegExp(ruleTool).test(toolName);
}

class RuleParser {
  readonly warnings: RuleWarning[] = [];

  constructor(private readonly knownTools: ReadonlySet<string>) {}

  private warn(input: RuleInput, message: string): void {
    this.warnings.push({ rule: input.text, kind: input.kind, source: input.source, message });
  }

  private make(input: RuleInput, tool: string, target: RuleTarget): PermissionRule {
    return { text: input.text, kind: input.kind, source: input.source, tool, target };
  }

  /** A deny/ask rule we cannot read precisely covers the whole tool; an allow rule is dropped. */
  private widen(input: RuleInput, tool: string, why: string): PermissionRule | undefined {
    if (input.kind === "allow") {
      this.warn(input, `${why}; this allow rule is ignored`);
      return undefined;
    }
    const what = tool === "*" ? "every tool" : `every ${tool} call`;
    this.warn(input, `${why}; this ${input.kind} rule is applied to ${what} instead, so that it cannot silently stop working`);
    return this.make(input, tool, { kind: "any" });
  }

  parse(input: RuleInput): PermissionRule | undefined {
    const text = input.text.trim();
    if (text === "") {
      this.warn(input, "empty rule ignored");
      return undefined;
    }
    const shape = RULE_SHAPE.exec(text);
    if (!shape) {
      const name = /^[A-Za-z0-9_*.-]+/.exec(text)?.[0];
      return this.widen(input, name ? canonicalToolName(name) : "*", `rule "${text}" is not of the form Tool or Tool(specifier)`);
    }
    const tool = canonicalToolName(shape[1] ?? "");
    const specifier = shape[2]?.trim();
    if (tool.includes("*")) return this.nameGlob(input, tool, specifier);
    if (input.kind !== "allow" && !this.knownTools.has(tool) && !tool.includes("_")) {
      this.warn(input, `unknown tool "${tool}": the rule matches no built-in tool (check the spelling; names are case-sensitive)`);
    }
    if (/^mcp__/.test(tool)) return this.mcp(input, tool, specifier);
    if (specifier === undefined || specifier === "*" || specifier === "") {
      if (specifier === "") this.warn(input, `empty specifier in "${text}" is read as the whole tool`);
      return this.make(input, tool, { kind: "any" });
    }
    return this.specific(input, tool, specifier);
  }

  private nameGlob(input: RuleInput, tool: string, specifier: string | undefined): PermissionRule | undefined {
    if (input.kind === "allow" && !/^mcp__[^*]+__/.test(tool)) {
      this.warn(input, `tool-name wildcards are only allowed in allow rules after a literal mcp__<server>__ prefix; "${input.text}" is ignored`);
      return undefined;
    }
    if (specifier !== undefined && specifier !== "*") return this.widen(input, tool, `a tool-name wildcard cannot take a specifier ("${input.text}")`);
    return this.make(input, tool, { kind: "any" });
  }

  private mcp(input: RuleInput, tool: string, specifier: string | undefined): PermissionRule | undefined {
    const serverOnly = !tool.slice("mcp__".length).includes("__");
    const name = serverOnly ? `${tool}__*` : tool;
    if (specifier === undefined || specifier === "*") return this.make(input, name, { kind: "any" });
    return this.param(input, name, specifier) ?? this.widen(input, name, `MCP tool rules take no specifier ("${input.text}")`);
  }

  private param(input: RuleInput, tool: string, specifier: string): PermissionRule | undefined {
    const match = PARAM_SHAPE.exec(specifier);
    if (!match) return undefined;
    const [, param = "", value = ""] = match;
    if (input.kind === "allow") {
      this.warn(input, `parameter rules apply only to deny and ask; allow rule "${input.text}" is ignored`);
      return undefined;
    }
    return this.make(input, tool, { kind: "param", param, value: value.trim() });
  }

  private specific(input: RuleInput, tool: string, specifier: string): PermissionRule | undefined {
    const param = PARAM_SHAPE.exec(specifier);
    const legacy = COMMAND_TOOLS.has(tool) && /^[^:]*:\*$/s.test(specifier);
    const known = KNOWN_PARAMS[tool];
    const isParam = param !== null && !legacy && (known === undefined || known.includes(param[1] ?? ""));
    if (isParam && param) {
      const [, name = "", value = ""] = param;
      if (PRIMARY_FIELDS[tool] === name) return this.primary(input, tool, value.trim());
      return this.param(input, tool, specifier);
    }
    if (COMMAND_TOOLS.has(tool)) {
      const pattern = legacy ? `${specifier.slice(0, -2)} *` : specifier;
      return this.make(input, tool === "Monitor" ? "Bash" : tool, { kind: "command", pattern });
    }
    if (tool === "Read" || tool === "Edit") return this.make(input, tool, { kind: "path", pattern: specifier });
    const family = IGNORED_PATH_TOOLS[tool];
    if (family) {
      if (input.kind === "allow") {
        this.warn(input, `${tool}(path) rules are never consulted; use ${family}(${specifier}) instead. "${input.text}" is ignored`);
        return undefined;
      }
      this.warn(input, `${tool}(path) rules are never consulted; this ${input.kind} rule is applied as ${family}(${specifier})`);
      return this.make(input, family, { kind: "path", pattern: specifier });
    }
    if (tool === "WebFetch") {
      const domain = /^domain:\s*(.+)$/s.exec(specifier);
      if (domain?.[1]) return this.make(input, tool, { kind: "domain", pattern: domain[1].trim() });
      return this.widen(input, tool, `WebFetch rules must be of the form WebFetch(domain:host) ("${input.text}")`);
    }
    if (tool === "Agent" || tool === "Skill") return this.make(input, tool, { kind: "name", pattern: specifier });
    return this.widen(input, tool, `${tool} takes no specifier other than param:value ("${input.text}")`);
  }

  /** `Bash(command:rm *)` says what `Bash(rm *)` says: honoured that way for deny/ask, with a warning. */
  private primary(input: RuleInput, tool: string, value: string): PermissionRule | undefined {
    const field = PRIMARY_FIELDS[tool] ?? "";
    if (input.kind === "allow") {
      this.warn(input, `parameter rules may not name ${field}; allow rule "${input.text}" is ignored (write ${tool}(${value}) instead)`);
      return undefined;
    }
    this.warn(input, `parameter rules may not name ${field}; this ${input.kind} rule is applied as ${tool}(${value})`);
    if (value === "" || value === "*") return this.make(input, tool, { kind: "any" });
    return this.specific(input, tool, value) ?? this.widen(input, tool, `unreadable value in "${input.text}"`);
  }
}

/** Parses every rule string; malformed deny/ask rules widen, malformed allow rules are dropped, each with a warning. */
export function compileRules(
  inputs: readonly RuleInput[],
  options: { knownTools?: readonly string[]; inactive?: readonly InactiveRuleInput[] } = {},
): RuleSet {
  const known = new Set(options.knownTools ?? KNOWN_TOOLS);
  const parser = new RuleParser(known);
  const set: RuleSet = { allow: [], ask: [], deny: [], warnings: parser.warnings };
  for (const input of inputs) {
    const rule = parser.parse(input);
    if (rule) set[rule.kind].push(rule);
  }
  if (options.inactive && options.inactive.length > 0) {
    // Their warnings were (or will be) reported where they are applied; here they are only looked up.
    const quiet = new RuleParser(known);
    set.inactive = options.inactive.flatMap((input) => {
      const rule = quiet.parse(input);
      return rule ? [{ ...rule, why: input.why, fix: input.fix }] : [];
    });
  }
  return set;
}

/** Tool names a bare or name-glob deny rule removes from the model's tool list. */
export function toolVisibility(rules: RuleSet, toolNames: readonly string[]): string[] {
  const hidden = rules.deny.filter((rule) => rule.target.kind === "any");
  return toolNames.filter((name) => hidden.some((rule) => toolNameMatches(rule.tool, name)));
}
