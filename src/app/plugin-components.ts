/**
 * A loaded plugin's skills, commands and agents as the extensions layer sees them: the folders the
 * plugin loader decided go through `pluginSource` and the session's own scanner, so validate
 * reports the ids a session would load. Its file problems become validate findings with the codes
 * of the corpus's EXPECTED.json, plus the Agent Skills checks validate adds (name form, name vs
 * folder, missing name or description).
 */
import { readdirSync } from "node:fs";
import { basename, relative, sep } from "node:path";
import { loadSource } from "../extensions/load.ts";
import type { LoadedSource } from "../extensions/registry.ts";
import { pluginSource } from "../extensions/sources.ts";
import type { ExtensionProblem } from "../extensions/types.ts";
import type { LoadedPlugin, PluginProblem, ProblemLevel } from "../plugins/types.ts";

export interface ScannedComponents {
  loaded: LoadedSource;
  ids: { skills: string[]; commands: string[]; agents: string[] };
}

export async function scanComponents(plugin: LoadedPlugin): Promise<ScannedComponents> {
  const { skills, skillsReplaceDefault, commands, agents } = plugin.components;
  const loaded = await loadSource(pluginSource({ root: plugin.root, name: plugin.name, skills, skillsReplaceDefault, commands, agents }), undefined);
  const sorted = (items: readonly { id: string }[]): string[] => items.map((item) => item.id).sort();
  return {
    loaded,
    ids: {
      skills: sorted(loaded.invocables.filter((item) => item.kind === "skill")),
      commands: sorted(loaded.invocables.filter((item) => item.kind === "command")),
      agents: sorted(loaded.agents),
    },
  };
}

const LEVEL: Record<ExtensionProblem["severity"], ProblemLevel> = { error: "error", warning: "warning", info: "note" };

/** Extension codes renamed or re-levelled for validate (EXPECTED.json's vocabulary); others pass through. */
function mapped(problem: ExtensionProblem, kind: string): { code: string; level: ProblemLevel } {
  switch (problem.code) {
    case "no-frontmatter":
      // A file the model sees only by its name and first paragraph is worth a warning in validate.
      return { code: "no-frontmatter", level: "warning" };
    case "description-long":
      return { code: `${kind}-description-long`, level: "note" };
    case "ignored-field":
      return { code: `${kind}-ignored-field`, level: "note" };
    default:
      return { code: problem.code, level: LEVEL[problem.severity] };
  }
}

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function fromExtension(problem: ExtensionProblem, kind: string): PluginProblem {
  const { code, level } = mapped(problem, kind);
  return {
    level,
    code,
    file: problem.file,
    message: `${kind} ${basename(problem.file)}: ${problem.message}`,
    ...(problem.field === undefined ? {} : { field: problem.field }),
    ...(problem.line === undefined ? {} : { line: problem.line }),
  };
}

export function componentIssues(scanned: ScannedComponents): PluginProblem[] {
  const problems: PluginProblem[] = scanned.loaded.problems.map((problem) => fromExtension(problem, "file"));
  for (const item of scanned.loaded.invocables) {
    problems.push(...item.problems.map((problem) => fromExtension(problem, item.kind)));
    if (item.kind !== "skill") continue;
    const add = (level: ProblemLevel, code: string, message: string, field: string): void => {
      problems.push({ level, code, file: item.file, field, message: `skill ${item.id}: ${message}` });
    };
    const folder = basename(item.dir);
    if (item.declaredName === undefined) add("note", "skill-no-name", `no "name" (falls back to directory "${folder}")`, "name");
    else {
      if (item.declaredName !== folder) add("note", "skill-name-dir-mismatch", `name "${item.declaredName}" differs from directory "${folder}"`, "name");
      if (!KEBAB.test(item.declaredName)) add("warning", "skill-name-format", `name "${item.declaredName}" is not lowercase-hyphen (Agent Skills spec); the name is used as written.`, "name");
    }
    if (item.descriptionFrom !== "frontmatter") add("warning", "skill-no-description", `no "description"; add one so the model knows when to use the skill.`, "description");
  }
  for (const agent of scanned.loaded.agents) problems.push(...agent.problems.map((problem) => fromExtension(problem, "agent")));
  return problems;
}

/** Output style ids: `.md` files of the listed folders (nested ones as `sub:name`) or listed files. */
export function outputStyleIds(paths: readonly string[]): string[] {
  const ids: string[] = [];
  for (const path of paths) {
    if (path.endsWith(".md")) {
      ids.push(basename(path, ".md"));
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(path, { recursive: true, encoding: "utf8" });
    } catch {
      continue;
    }
    for (const name of names) if (name.endsWith(".md")) ids.push(relative(".", name.slice(0, -3)).split(sep).join(":"));
  }
  return [...new Set(ids)].sort();
}
