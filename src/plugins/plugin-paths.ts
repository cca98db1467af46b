/**
 * Component folders after the path rules of plugins.md §4 (and EXPECTED.md I5–I8): `skills` adds
 * to `skills/` (except for marketplace-root entries, marketplaces.md §5.3), `commands`, `agents`
 * and `outputStyles` replace their default folder. Every listed path is checked: inside the
 * plugin, written `./…`, existing; the ones that fail are reported and left out.
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { exists, isDirectory, isDotRelative, type ProblemList, pathValues, resolvePluginPath } from "./plugin-files.ts";
import type { LoadedPlugin } from "./types.ts";

export interface Declared {
  value: unknown;
  /** The file the value was written in (plugin.json or marketplace.json). */
  file: string;
  field: string;
}

export interface PathInput {
  root: string;
  label: string;
  /** The entry's source is the marketplace root (`./`, `.`): listed skills are the complete set. */
  marketplaceRootSource: boolean;
  skills: readonly Declared[];
  commands: readonly Declared[];
  agents: readonly Declared[];
  outputStyles: readonly Declared[];
}

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

type Field = "skills" | "commands" | "agents" | "outputStyles";

/** The paths of every declaration of one field that exist, de-duplicated; problems for the rest. */
function listed(field: Field, root: string, label: string, declared: readonly Declared[], problems: ProblemList): string[] {
  const paths: string[] = [];
  for (const { value, file, field: at } of declared) {
    const values = pathValues(value);
    if (values === undefined) {
      problems.add("error", "manifest-invalid-field", file, `${label}: "${field}" must be a "./path" or a list of them; it is ignored.`, at);
      continue;
    }
    for (const written of values) {
      const resolved = resolvePluginPath(root, written);
      if (!resolved.ok) {
        problems.add("error", "path-invalid", file, `${label}: ${field} path ${resolved.message}; it is not loaded.`, at);
        continue;
      }
      if (!isDotRelative(written)) problems.add("warning", "path-not-dot-relative", file, `${label}: ${field} path "${written}" should start with "./" (Claude Code refuses other forms).`, at);
      if (!exists(resolved.path)) {
        problems.add("error", "path-not-found", file, `${label}: ${field} path "${written}" does not exist; create it or remove it from "${field}".`, at);
        continue;
      }
      if (field === "skills" && !isDirectory(resolved.path)) {
        problems.add("error", "skills-path-is-file", file, `${label}: skills path "${written}" is a file; list the folder that holds it (a folder with SKILL.md, or with <name>/SKILL.md folders).`, at);
        continue;
      }
      if (field === "agents" && isDirectory(resolved.path)) {
        // Tolerated (EXPECTED.md I8): the docs say agent files, real plugins give folders.
        problems.add("warning", "agents-path-is-dir", file, `${label}: agents path "${written}" is a directory (spec: agent files); scanned anyway.`, at);
      }
      if (field === "commands" && isFile(resolved.path) && !resolved.path.endsWith(".md")) {
        problems.add("warning", "commands-path-not-md", file, `${label}: commands path "${written}" is not a .md file; it is not loaded.`, at);
        continue;
      }
      if (!paths.includes(resolved.path)) paths.push(resolved.path);
    }
  }
  return paths;
}

const DEFAULT_FOLDER: Record<Exclude<Field, "skills">, string> = { commands: "commands", agents: "agents", outputStyles: "output-styles" };

/** A replacing field: the listed paths, or the default folder; a note when a default folder goes unread. */
function replacing(field: Exclude<Field, "skills">, input: PathInput, problems: ProblemList): string[] {
  const fallback = join(input.root, DEFAULT_FOLDER[field]);
  const declared = input[field];
  if (declared.length === 0) return [fallback];
  const paths = listed(field, input.root, input.label, declared, problems);
  const last = declared.at(-1);
  // Counted whenever the folder itself is not listed (EXPECTED.md reports it for Dev-GOM spec-kit,
  // whose listed files all sit inside commands/, although Claude Code stays quiet then).
  if (last !== undefined && isDirectory(fallback) && !paths.includes(resolve(fallback))) {
    problems.add("note", "default-folder-ignored", last.file, `${input.label}: ${DEFAULT_FOLDER[field]}/ exists but the manifest/entry sets "${field}"; default folder not scanned. List "./${DEFAULT_FOLDER[field]}/" too to keep it.`, last.field);
  }
  return paths;
}

export function componentPaths(input: PathInput, problems: ProblemList): LoadedPlugin["components"] {
  let skills = listed("skills", input.root, input.label, input.skills, problems);
  let skillsReplaceDefault = input.marketplaceRootSource && skills.length > 0;
  if (skillsReplaceDefault && skills.includes(resolve(input.root))) {
    // Listing the root keeps the full default scan (marketplaces.md §5.3).
    skills = skills.filter((path) => path !== resolve(input.root));
    skillsReplaceDefault = false;
  }
  // pluginSource scans skills/ itself unless the list replaces it: listing it again would scan it twice.
  if (!skillsReplaceDefault) skills = skills.filter((path) => path !== resolve(input.root, "skills"));
  // Single-skill plugin (plugins.md §6.1): a root SKILL.md when there is no skills/ and no field.
  if (input.skills.length === 0 && !isDirectory(join(input.root, "skills")) && isFile(join(input.root, "SKILL.md"))) skills = [resolve(input.root)];
  return {
    skills,
    skillsReplaceDefault,
    commands: replacing("commands", input, problems),
    agents: replacing("agents", input, problems),
    outputStyles: replacing("outputStyles", input, problems),
  };
}
