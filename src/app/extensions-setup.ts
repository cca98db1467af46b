/**
 * The session's skills, commands and agents: one registry loaded from the component sources
 * (user, project up to the repository root, `--add-dir`; plugins add more), from the index cache
 * when nothing changed, and the one-line-per-skill catalogue the model sees. A session whose
 * folders hold none pays for a few directory reads.
 */
import type { ExtensionProblem, ExtensionRegistry, Invocable } from "../extensions/index.ts";
import { anyFolderExists, discoverSources } from "../extensions/sources.ts";

export interface SessionExtensions {
  /** Undefined when no skills, commands or agents folder exists anywhere. */
  registry: ExtensionRegistry | undefined;
  /** The skills the model may call through the Skill tool. */
  modelInvocable: readonly Invocable[];
  /** The catalogue for the system prompt (empty when there is nothing to list). */
  catalogue: string;
  problems: readonly ExtensionProblem[];
}

export interface ExtensionsInput {
  cwd: string;
  projectRoot: string | undefined;
  /** clew's user folder (`~/.clew`): its skills/, commands/ and agents/. */
  userDir: string;
  managedDirs: readonly string[];
  addDirs: readonly string[];
  cacheDir: string | undefined;
  /** Characters the catalogue may take (about 1% of the window, spec A.4). */
  budgetChars: number;
}

const CATALOGUE_HEADER =
  "# Skills\nSkills are instructions for particular tasks. When a task matches one, load it with the Skill tool (skill: its name) before you start; load only the skills the task needs.";

export async function loadSessionExtensions(input: ExtensionsInput): Promise<SessionExtensions> {
  const sources = discoverSources({
    cwd: input.cwd,
    userDir: input.userDir,
    managedDirs: input.managedDirs,
    addDirs: input.addDirs,
    ...(input.projectRoot ? { projectRoot: input.projectRoot } : {}),
  });
  // Most sessions have no extension folder at all: then the layer is not even loaded.
  if (!anyFolderExists(sources)) return { registry: undefined, modelInvocable: [], catalogue: "", problems: [] };
  // Only what start-up needs: rendering and slash parsing load when something is invoked.
  const [{ loadExtensions }, { skillCatalogue }] = await Promise.all([import("../extensions/load.ts"), import("../extensions/catalogue.ts")]);
  const registry = await loadExtensions({ sources, ...(input.cacheDir ? { cacheDir: input.cacheDir } : {}) });
  const modelInvocable = registry.invocables.filter((item) => item.modelInvocable);
  const listing = modelInvocable.length > 0 ? skillCatalogue(modelInvocable, { budgetChars: input.budgetChars }) : "";
  return { registry, modelInvocable, catalogue: listing ? `${CATALOGUE_HEADER}\n${listing}` : "", problems: registry.problems };
}
