/**
 * A turn's loop dependencies that wait for the prompt's checkpoint before anything in the loop can
 * change a file — a tool call or a Stop hook — so the first request goes out while the snapshot is
 * still being taken.
 */
import type { LoopDeps } from "../loop/loop.ts";
import type { CheckpointPort } from "./checkpoints-setup.ts";

export function afterSnapshot(deps: LoopDeps, taken: Promise<unknown>): LoopDeps {
  // A failed snapshot was already reported by the checkpoints port; the turn goes on.
  const ready = taken.then(
    () => undefined,
    () => undefined,
  );
  const { tools, hooks } = deps;
  return {
    ...deps,
    tools: {
      isReadOnly: (name) => tools.isReadOnly(name),
      execute: async (call, signal, emit) => {
        await ready;
        return tools.execute(call, signal, emit);
      },
    },
    ...(hooks
      ? {
          hooks: {
            fire: async (event, fields, options) => {
              await ready;
              return hooks.fire(event, fields, options);
            },
            hasHooks: (event) => hooks.hasHooks(event),
            ...(hooks.hasHooksFor ? { hasHooksFor: (event, toolName) => hooks.hasHooksFor?.(event, toolName) ?? hooks.hasHooks(event) } : {}),
          },
        }
      : {}),
  };
}

/**
 * One prompt's checkpoint: taken when the prompt starts, awaited only before something can change
 * a file, recorded once the snapshot is done, and its turn's end queued behind the turn.
 */
export class PromptCheckpoint {
  private readonly snapshot: Promise<number | undefined> | undefined;
  private taken: number | undefined;
  private recorded: Promise<void> | undefined;

  constructor(private readonly port: CheckpointPort | undefined) {
    this.snapshot = port?.startPrompt();
  }

  get active(): boolean {
    return this.snapshot !== undefined;
  }

  /** Before a step that may change a file ahead of the first request (a command's `!` lines, UserPromptSubmit hooks). */
  async ready(): Promise<void> {
    if (this.snapshot) this.taken ??= await this.snapshot;
  }

  /** The prompt was not sent: nothing to rewind to. */
  async discard(): Promise<void> {
    await this.ready();
    if (this.taken !== undefined) await this.port?.discard(this.taken);
    this.taken = undefined;
  }

  /** The prompt went out: `describe` runs with its number once the snapshot is done. */
  record(describe: (prompt: number) => Promise<void>): void {
    this.recorded = this.snapshot?.then(async (taken) => {
      this.taken ??= taken;
      if (this.taken !== undefined) await describe(this.taken);
    });
  }

  /** The turn's loop dependencies: its tools and Stop hooks wait for the snapshot. */
  deps(loopDeps: LoopDeps): LoopDeps {
    return this.recorded ? afterSnapshot(loopDeps, this.recorded) : loopDeps;
  }

  /** The turn ended: its end is recorded behind it; settles when it is. */
  finish(): Promise<void> {
    const { port, recorded } = this;
    if (!port || !recorded) return Promise.resolve();
    return recorded
      .catch(() => undefined)
      .then(async () => {
        if (this.taken !== undefined) await port.afterTurn(this.taken);
      });
  }
}
