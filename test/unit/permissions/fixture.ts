// Shared set-up for the permission tests: a real project in a temp dir (with a home directory
// around it, so ~ and symlinks are real), rules from plain strings, and a realpath backed by fs.
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileSystemView } from "../../../src/app/file-view.ts";
import { evaluate } from "../../../src/permissions/evaluate.ts";
import { compileRules, type RuleSet } from "../../../src/permissions/rules.ts";
import type { PermissionCall, PermissionContext, PermissionEvaluation, PermissionMode, RuleKind, ToolAccess } from "../../../src/permissions/types.ts";

export interface Project {
  root: string;
  home: string;
  cwd: string;
  other: string;
}

/** `<root>/home/user/project` as cwd, `<root>/other` outside it; all real directories. */
export function makeProject(): Project {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "perm-")));
  const home = join(root, "home", "user");
  const cwd = join(home, "project");
  const other = join(root, "other");
  for (const dir of [cwd, other]) mkdirSync(dir, { recursive: true });
  return { root, home, cwd, other };
}

export function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export interface RuleSpec {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

export function rulesFor(spec: RuleSpec, root: string): RuleSet {
  const inputs = (["allow", "ask", "deny"] as const).flatMap((kind: RuleKind) =>
    (spec[kind] ?? []).map((text) => ({ text, kind, source: { scope: "project" as const, file: `${root}/.clew/settings.json`, root } })),
  );
  return compileRules(inputs);
}

/** The gate's real view of the file system (listings, git, glob expansion), as the app gives it. */
export const files = createFileSystemView();

export function contextFor(project: Project, mode: PermissionMode = "default", workingDirs: string[] = []): PermissionContext {
  return { mode, cwd: project.cwd, workingDirs, homeDir: project.home, realpath, files };
}

const ACCESS: Record<string, ToolAccess> = { Bash: "exec", Read: "read", Grep: "read", Glob: "read", Edit: "write", Write: "write", WebFetch: "network" };

export function call(toolName: string, input: Record<string, unknown>, subject: string): PermissionCall {
  return { toolName, access: ACCESS[toolName] ?? "exec", input, subject };
}

export function bashCall(command: string): PermissionCall {
  return call("Bash", { command }, command);
}

export async function decide(spec: RuleSpec, project: Project, what: PermissionCall, mode: PermissionMode = "default"): Promise<PermissionEvaluation> {
  return evaluate(rulesFor(spec, project.cwd), what, contextFor(project, mode));
}
