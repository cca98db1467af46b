/**
 * One prompt's checkpoint. The snapshot starts once the turn's first request is on its way (so
 * git never competes with preparing it), or earlier when something needs it: a step that may
 * change a file ahead of the request. Everything in the loop that can change a file — a tool
 * call, a Stop hook — waits for it. The turn's end is recorded behind the turn.
 */
import type { LoopDeps } from "../loop/loop.ts";
import type { StreamFn } from "../model/types.ts";
import type { CheckpointPort } from "./checkpoints-setup.ts";

/** Loop dependencies whose tool calls and hooks wait for `ready()`, and whose first request calls `started()` once it is out. */
function afterSnapshot(deps: LoopDeps, ready: () => Promise<unknown>, started: () => void): LoopDeps {
  // A failed snapshot was already reported by the checkpoints port; the turn goes on.
  const settled = () => ready().then(
    () => undefined,
    () => undefined,
  );
  const { tools, hooks, stream } = deps;
  const streamThenStart: StreamFn = async function* (request, signal) {
    let first = true;
    for await (const event of stream(request, signal)) {
      if (first) {
        first = false;
        started();
      }
      yield event;
    }
  };
  return {
    ...deps,
    stream: streamThenStart,
    tools: {
      isReadOnly: (name) => tools.isReadOnly(name),
      execute: async (call, signal, emit) => {
        await settled();
        return tools.execute(call, signal, emit);
      },
    },
    ...(hooks
      ? {
          hooks: {
            fire: async (event, fields, options) => {
              await settled();
              return hooks.fire(event, fields, options);
            },
            hasHooks: (event) => hooks.hasHooks(event),
            ...(hooks.hasHooksFor ? { hasHooksFor: (event, toolName) => hooks.hasHooksFor?.(event, toolName) ?? hooks.hasHooks(event) } : {}),
          },
        }
      : {}),
  };
}

export class PromptCheckpoint {
  private snapshot: Promise<number | undefined> | undefined;
  private taken: number | undefined;
  private describe: ((prompt: number) => Promise<void>) | undefined;
  private recorded: Promise<void> | undefined;

  constructor(private readonly port: CheckpointPort | undefined) {}

  get active(): boolean {
    return this.port !== undefined;
  }

  private start(): Promise<number | undefined> {
    this.snapshot ??= this.port?.startPrompt() ?? Promise.resolve(undefined);
    return this.snapshot;
  }

  /** Before a step that may change a file ahead of the first request (a command's `!` lines, UserPromptSubmit hooks). */
  async ready(): Promise<void> {
    if (this.port) this.taken ??= await this.start();
  }

  /** The prompt was not sent: nothing to rewind to. */
  async discard(): Promise<void> {
    if (!this.port) return;
    await this.ready();
    if (this.taken !== undefined) await this.port.discard(this.taken);
    this.taken = undefined;
  }

  /** The prompt went out: `describe` runs with its number once the snapshot is done. */
  record(describe: (prompt: number) => Promise<void>): void {
    this.describe = describe;
  }

  /** The snapshot and the prompt's record, started on first need. */
  private recording(): Promise<void> {
    this.recorded ??= this.start().then(async (taken) => {
      this.taken ??= taken;
      if (this.taken !== undefined && this.describe) await this.describe(this.taken);
    });
    return this.recorded;
  }

  /** The turn's loop dependencies: the snapshot starts behind its first request; tools and Stop hooks wait for it. */
  deps(loopDeps: LoopDeps): LoopDeps {
    if (!this.port) return loopDeps;
    return afterSnapshot(
      loopDeps,
      () => this.recording(),
      () => void this.recording(),
    );
  }

  /** The turn ended: its end is recorded behind it (the snapshot too, if nothing needed it); settles when it is. */
  finish(): Promise<void> {
    const port = this.port;
    if (!port || !this.describe) return Promise.resolve();
    // Tracked, so that whoever waits for the port's snapshots (the list of prompts) waits for this one too.
    return port.track(
      this.recording()
        .catch(() => undefined)
        .then(async () => {
          if (this.taken !== undefined) await port.afterTurn(this.taken);
        }),
    );
  }
}
