/**
 * Instruction files for a session: loaded once at start (they live in the cached prefix), and
 * those of subdirectories the model reads into later, delivered as reminders.
 */
import { isAbsolute, join, resolve } from "node:path";
import {
  findRepoRoot,
  loadAutoMemory,
  loadInstructions,
  nestedInstructionsFor,
  renderInstructions,
  type InstructionOptions,
  type InstructionSet,
} from "../context/instructions.ts";
import type { AgentEvent } from "../loop/events.ts";
import { projectStateDir, type Environment } from "../settings/paths.ts";

export interface StartupInstructions {
  text: string;
  problems: string[];
  /** Paths of the files loaded at start, in load order. */
  files: string[];
  /** Watches Read calls and yields the nested instruction files they uncover, rendered (none in `--bare`). */
  watcher?: NestedInstructionWatcher;
}

export class NestedInstructionWatcher {
  private readonly pendingPaths = new Map<string, string>();
  private readonly work: Promise<string | undefined>[] = [];

  constructor(
    private readonly options: InstructionOptions,
    private readonly set: InstructionSet,
  ) {}

  observe(event: AgentEvent): void {
    if (event.type === "tool_start" && event.name === "Read") {
      const path = (event.input as { file_path?: unknown } | undefined)?.file_path;
      if (typeof path === "string") this.pendingPaths.set(event.id, path);
    }
    if (event.type === "tool_end" && this.pendingPaths.has(event.id)) {
      const path = this.pendingPaths.get(event.id) as string;
      this.pendingPaths.delete(event.id);
      if (event.isError) return;
      this.work.push(
        nestedInstructionsFor(isAbsolute(path) ? path : resolve(this.options.cwd, path), {
          ...this.options,
          conditionalRules: this.set.conditionalRules,
          alreadyLoaded: this.set.loaded,
        }).then((found) => (found.files.length > 0 ? renderInstructions(found.files) : undefined)),
      );
    }
  }

  /** Rendered instruction text discovered since the last call. */
  async drain(): Promise<string[]> {
    const done = await Promise.all(this.work.splice(0));
    return done.filter((text): text is string => text !== undefined && text !== "");
  }
}

export async function loadStartupInstructions(env: Environment, excludes: readonly string[], autoMemory: boolean, addDirs: readonly string[] = []): Promise<StartupInstructions> {
  const repoRoot = findRepoRoot(env.cwd);
  const extraDirs = env.addDirInstructions ? addDirs : [];
  const options: InstructionOptions = { cwd: env.cwd, repoRoot, homeDir: env.homeDir, configDir: env.configDir, excludes, ...(extraDirs.length > 0 ? { extraDirs } : {}) };
  const set = await loadInstructions(options);
  const files = [...set.files];
  if (autoMemory) {
    const memory = loadAutoMemory({ memoryDir: join(projectStateDir(env.configDir, repoRoot ?? env.cwd), "memory") });
    if (memory) files.push(memory);
  }
  return { text: renderInstructions(files), problems: set.problems, files: files.map((file) => file.path), watcher: new NestedInstructionWatcher(options, set) };
}
