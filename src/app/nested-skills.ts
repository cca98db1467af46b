/**
 * Skills and commands in `.clew/`/`.claude/` folders below the working directory (a monorepo's
 * `apps/web/.claude/skills/`) load the first time the model reads or edits a file there (spec A.3).
 * They join the registry — `/name` and the Skill tool find them — and the model is told about them
 * in a reminder, so the cached system prompt stays as it was.
 */
import { isAbsolute, resolve } from "node:path";
import type { AgentEvent } from "../loop/events.ts";
import { nestedSources } from "../extensions/sources.ts";
import type { InvocationDeps } from "./invocations.ts";

const FILE_TOOLS = new Set(["Read", "Edit", "Write", "NotebookEdit"]);

export interface ContextWatcher {
  observe(event: AgentEvent): void;
  drain(): Promise<string[]>;
}

export class NestedSkillWatcher implements ContextWatcher {
  private readonly pending = new Map<string, string>();
  private readonly work: Promise<string | undefined>[] = [];

  constructor(
    private readonly deps: InvocationDeps,
    private readonly cwd: string,
    private readonly cacheDir: string | undefined,
  ) {}

  observe(event: AgentEvent): void {
    if (event.type === "tool_start" && FILE_TOOLS.has(event.name)) {
      const path = (event.input as { file_path?: unknown; notebook_path?: unknown } | undefined)?.file_path ?? (event.input as { notebook_path?: unknown } | undefined)?.notebook_path;
      if (typeof path === "string") this.pending.set(event.id, isAbsolute(path) ? path : resolve(this.cwd, path));
    }
    if (event.type === "tool_end" && this.pending.has(event.id)) {
      const path = this.pending.get(event.id) as string;
      this.pending.delete(event.id);
      if (!event.isError) this.work.push(this.load(path));
    }
  }

  async drain(): Promise<string[]> {
    const done = await Promise.all(this.work.splice(0));
    return done.filter((text): text is string => text !== undefined);
  }

  private async load(path: string): Promise<string | undefined> {
    // Most files have no skills folder on their way up: the loader is imported only for one that has.
    const sources = nestedSources(this.cwd, path);
    if (sources.length === 0) return undefined;
    const { loadNested, listingDescription } = await import("../extensions/index.ts");
    const current = await this.deps.registry.get();
    const before = new Set(current.invocables.map((item) => item.id));
    const next = await loadNested(current, sources, this.cacheDir);
    this.deps.registry.replace(next);
    const added = next.invocables.filter((item) => !before.has(item.id) && item.modelInvocable);
    if (added.length === 0) return undefined;
    const lines = added.map((item) => `- ${item.name}: ${listingDescription(item, 300)}`);
    return `More skills are available through the Skill tool, from the folders of ${sources.map((source) => source.qualifier ?? source.root).join(", ")}:\n${lines.join("\n")}`;
  }
}

/** One watcher that feeds several (nested instructions, nested skills). */
export function combineWatchers(watchers: readonly (ContextWatcher | undefined)[]): ContextWatcher {
  const present = watchers.filter((watcher): watcher is ContextWatcher => watcher !== undefined);
  return {
    observe: (event) => {
      for (const watcher of present) watcher.observe(event);
    },
    drain: async () => (await Promise.all(present.map((watcher) => watcher.drain()))).flat(),
  };
}
