/**
 * The MCP servers in force for one run, and every problem found on the way (spec §2.1–2.4, 2.12).
 * Data in, data out: the caller passes paths, flags, the merged settings values and the
 * environment used for `${VAR}`; nothing here reads the process environment. Bad input never throws: a
 * broken file or entry becomes a problem and the rest still loads. The one exception is a
 * managed configuration combined with `--mcp-config`/`--strict-mcp-config`, which Claude Code
 * refuses at start-up, and so does clew.
 *
 * Precedence, strongest first: managed (exclusive when present), `--mcp-config`, local
 * (clew.json, this project), project (`.mcp.json`, nearest folder first), user (clew.json).
 * A name defined in several places takes the strongest valid definition whole — no field merge.
 */
import { FatalError } from "../../util/errors.ts";
import type { McpApproval, McpProblem, McpServerEntry } from "../types.ts";
import { projectApproval, readProjectChoices, type ApprovalSettings, type ProjectChoices } from "./approvals.ts";
import { definitionHash, parseEntry } from "./entry.ts";
import { expandConfig } from "./expand.ts";
import { blockedBy, readPolicy, type PolicyInput } from "./policy.ts";
import { cliSources, managedSource, projectSources, stateSources, type RawSource } from "./sources.ts";

export interface McpSettingsInput extends ApprovalSettings, PolicyInput {}

export interface McpConfigInput {
  /** Absolute start directory. */
  cwd: string;
  /** The repository root: `.mcp.json` files are looked for from cwd up to here. */
  projectRoot?: string;
  /** The key of this project's local scope in clew.json (default: cwd). */
  projectDir?: string;
  configDir: string;
  managedDirs: readonly string[];
  /** `--mcp-config` values, in order: file paths or JSON strings. */
  cliConfigs: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strict: boolean;
  /** For `${VAR}` expansion. */
  env: Readonly<Record<string, string>>;
  /** Merged settings values (`loaded.settings[key]`), already trust-filtered by settings/. */
  settings: McpSettingsInput;
  /** Whether the start directory is trusted (project servers are "untrusted" otherwise). */
  trusted: boolean;
}

export interface ConfiguredServer extends McpServerEntry {
  approval: McpApproval;
  /** Why policy blocks it; a blocked server is listed but never started. */
  blocked?: string;
  /** Project servers: the folder holding their `.mcp.json` (approvals are remembered per folder). */
  folder?: string;
}

export interface McpConfig {
  servers: ConfiguredServer[];
  problems: McpProblem[];
  /** Whether a managed configuration decides alone. */
  managed: boolean;
}

export const MANAGED_EXCLUSIVE_MESSAGE = "You cannot dynamically configure MCP servers when an enterprise MCP config is present";

function collectSources(input: McpConfigInput, problems: McpProblem[]): { sources: RawSource[]; managed: boolean } {
  const managed = managedSource(input.managedDirs, problems);
  if (managed.present) {
    if (input.cliConfigs.length > 0 || input.strict) {
      throw new FatalError("usage", `Error: ${MANAGED_EXCLUSIVE_MESSAGE}`, "Remove --mcp-config and --strict-mcp-config; your organisation's managed-mcp.json decides which servers run.");
    }
    return { sources: managed.source ? [managed.source] : [], managed: true };
  }
  const cli = cliSources(input.cliConfigs, input.cwd, problems);
  if (input.strict) return { sources: cli, managed: false };
  const state = stateSources(input.configDir, input.projectDir ?? input.cwd, problems);
  const project = projectSources(input.cwd, input.projectRoot, problems);
  return {
    sources: [...cli, ...(state.local ? [state.local] : []), ...project, ...(state.user ? [state.user] : [])],
    managed: false,
  };
}

function missingVarProblems(source: RawSource, name: string, missing: readonly string[]): McpProblem[] {
  return missing.map((variable) => ({
    file: source.origin,
    keyPath: `${source.base}.${name}`,
    server: name,
    type: "missing_env" as const,
    severity: "warning" as const,
    message: `MCP server "${name}" uses \${${variable}}, which is not set and has no default, so the text is used as written; set ${variable} or write \${${variable}:-default}`,
  }));
}

export function loadMcpConfig(input: McpConfigInput): McpConfig {
  const problems: McpProblem[] = [];
  const { sources, managed } = collectSources(input, problems);
  const policy = readPolicy(input.settings, problems);
  const servers: ConfiguredServer[] = [];
  const taken = new Set<string>();
  let choices: ProjectChoices | undefined;
  for (const source of sources) {
    for (const [name, raw] of Object.entries(source.servers)) {
      const parsed = parseEntry({ file: source.origin, base: source.base }, name, raw);
      const shadowed = taken.has(name);
      // A weaker definition of a name already in force says nothing worth a warning.
      if (!shadowed) problems.push(...parsed.problems);
      if (shadowed || !parsed.config) continue;
      taken.add(name);
      const expanded = expandConfig(parsed.config, input.env);
      problems.push(...missingVarProblems(source, name, expanded.missing));
      const hash = definitionHash(raw);
      let approval: McpApproval = "approved";
      if (source.scope === "project" && source.folder !== undefined) {
        choices ??= readProjectChoices(input.configDir);
        approval = projectApproval({ name, hash, folder: source.folder }, input.settings, choices, input.trusted);
      }
      const blocked = blockedBy(policy, name, expanded.config);
      servers.push({
        name,
        scope: source.scope,
        origin: source.origin,
        config: expanded.config,
        missingVars: expanded.missing,
        hash,
        approval,
        ...(blocked ? { blocked } : {}),
        ...(source.folder !== undefined ? { folder: source.folder } : {}),
      });
    }
  }
  return { servers, problems, managed };
}

/** Whether a configured server may be started at all (its approval aside, which the mode decides). */
export function isStartable(server: ConfiguredServer): boolean {
  return server.blocked === undefined && server.approval !== "rejected" && server.approval !== "untrusted";
}
