/**
 * One prompt's checkpoint. The snapshot starts once the turn's first request is on its way (so
 * git never competes with preparing it), or earlier when something needs it: a step that may
 * change a file ahead of the request. Everything in the loop that can change a file — a tool
 * call, a Stop hook — waits until it has read the files; a tool that only reads runs beside it,
 * since the snapshot is the same whether it runs before or after. The turn's end is recorded
 * behind the turn: without git when nothing in the turn could have changed a file, and by
 * recording just their files when only Edit, Write and NotebookEdit did.
 */
import { isAbsolute } from "node:path";
import { FIRED_EVENTS, type FiredHookEvent } from "../hooks/events.ts";
import type { LoopDeps } from "../loop/loop.ts";
import type { StreamFn } from "../model/types.ts";
import type { CheckpointPort, TurnActivity } from "./checkpoints-setup.ts";

/**
 * Tools that never change a file, whatever their input (named one by one: being read-only for
 * scheduling is not enough — Agent, SendMessage and Skill are, yet start work that writes, and an
 * MCP tool's read-only hint is only its server's word).
 */
const CHANGE_NO_FILE = new Set(["Read", "Grep", "Glob", "ToolSearch", "TodoWrite", "BashOutput", "WebFetch", "WebSearch"]);
/** Tools that change files themselves and leave nothing running once they return: the input field naming the one file each may change. */
const WRITES_AND_ENDS = new Map([
  ["Edit", "file_path"],
  ["Write", "file_path"],
  ["NotebookEdit", "notebook_path"],
]);

/** The file a call of a tool that writes and ends may change, if its input names it by absolute path. */
function namedFile(name: string, input: unknown): string | undefined {
  const field = WRITES_AND_ENDS.get(name);
  const value = field !== undefined && typeof input === "object" && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  return typeof value === "string" && isAbsolute(value) ? value : undefined;
}
/** Hooks that fire around one tool's call, matched to it. */
const TOOL_EVENTS = new Set<FiredHookEvent>(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"]);
/**
 * Hooks that cannot fire while a read runs beside the snapshot: Stop goes through the loop's
 * hooks (which wait), UserPromptSubmit comes before the loop (after `ready()`), SessionEnd after
 * the turn, Notification through Session.notify (which waits for the snapshots; a hook that ran
 * makes the turn's end a whole snapshot, see `finish`). Any other (compaction's, a helper's end,
 * an event added later) makes reads wait too.
 */
const NEVER_BESIDE_A_READ = new Set<FiredHookEvent>(["Stop", "UserPromptSubmit", "SessionEnd", "Notification"]);

/**
 * Loop dependencies whose tool calls and hooks wait for `ready()` — but for calls that only read
 * — and whose first request calls `begin()` once it is on its way. `activity` learns what ran.
 */
function afterSnapshot(deps: LoopDeps, ready: () => Promise<unknown>, begin: () => void, activity: TurnActivity): LoopDeps {
  // A failed snapshot was already reported by the checkpoints port; the turn goes on.
  const settled = () => ready().then(
    () => undefined,
    () => undefined,
  );
  const { tools, hooks, stream } = deps;
  // A hook that may run while a read goes on could change a file beside the snapshot.
  const hookedBeside = (name: string) =>
    hooks !== undefined && FIRED_EVENTS.some((event) => !NEVER_BESIDE_A_READ.has(event) && (TOOL_EVENTS.has(event) && hooks.hasHooksFor ? hooks.hasHooksFor(event, name) : hooks.hasHooks(event)));
  const onlyReads = (name: string) => CHANGE_NO_FILE.has(name) && !hookedBeside(name);
  let begun = false;
  const streamThenStart: StreamFn = (request, signal) => {
    if (!begun) {
      begun = true;
      // Once the request is on its way (the loop asks for its first event in this tick), its
      // flight is idle time: the snapshot runs then, and is done before its first tool call
      // unless the answer comes back at once.
      setImmediate(begin);
    }
    return stream(request, signal);
  };
  return {
    ...deps,
    stream: streamThenStart,
    tools: {
      isReadOnly: (name) => tools.isReadOnly(name),
      execute: async (call, signal, emit) => {
        if (onlyReads(call.name)) {
          begin();
          return tools.execute(call, signal, emit);
        }
        activity.wrote = true;
        // A shell may leave a process behind, a helper go on in the background, an MCP server act later.
        if (!WRITES_AND_ENDS.has(call.name)) activity.lingers = true;
        else {
          const file = namedFile(call.name, call.input);
          if (file === undefined) delete activity.written;
          else activity.written?.push(file);
        }
        await settled();
        return tools.execute(call, signal, emit);
      },
    },
    ...(hooks
      ? {
          hooks: {
            fire: async (event, fields, options) => {
              activity.wrote = true;
              activity.lingers = true;
              await settled();
              return hooks.fire(event, fields, options);
            },
            hasHooks: (event) => hooks.hasHooks(event),
            ...(hooks.hasHooksFor ? { hasHooksFor: (event, toolName) => hooks.hasHooksFor?.(event, toolName) ?? hooks.hasHooks(event) } : {}),
            ...(hooks.started ? { started: () => hooks.started?.() ?? 1 } : {}),
          },
        }
      : {}),
  };
}

export class PromptCheckpoint {
  private snapshot: Promise<number | undefined> | undefined;
  /** Settles once the snapshot has read the files (or failed): from then on they may change. */
  private captured: Promise<void> | undefined;
  private taken: number | undefined;
  private describe: ((prompt: number) => Promise<void>) | undefined;
  private recorded: Promise<void> | undefined;
  private readonly activity: TurnActivity = { wrote: false, lingers: false, written: [] };
  private hooks: LoopDeps["hooks"];

  constructor(private readonly port: CheckpointPort | undefined) {}

  get active(): boolean {
    return this.port !== undefined;
  }

  private start(): Promise<number | undefined> {
    if (!this.snapshot) {
      const read = Promise.withResolvers<void>();
      this.snapshot = this.port?.startPrompt(read.resolve) ?? Promise.resolve(undefined);
      const settled = this.snapshot.then(
        () => undefined,
        () => undefined,
      );
      this.captured = Promise.race([read.promise, settled]);
    }
    return this.snapshot;
  }

  /** Once the snapshot (started now if it was not) has read the files. */
  private filesRead(): Promise<void> {
    this.start();
    return this.captured ?? Promise.resolve();
  }

  /** Before a step that may change a file ahead of the first request (a command's `!` lines, UserPromptSubmit hooks). */
  async ready(): Promise<void> {
    if (!this.port) return;
    this.activity.wrote = true;
    this.activity.lingers = true;
    this.taken ??= await this.start();
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

  /**
   * The turn's loop dependencies: the snapshot starts once its first request is out; tools that may
   * write and Stop hooks wait until it has read the files, not for its trees or its record (a
   * process killed in those few milliseconds loses this prompt's checkpoint, never a file).
   */
  deps(loopDeps: LoopDeps): LoopDeps {
    if (!this.port) return loopDeps;
    this.hooks = loopDeps.hooks;
    return afterSnapshot(
      loopDeps,
      () => {
        void this.recording();
        return this.filesRead();
      },
      () => void this.recording(),
      this.activity,
    );
  }

  /** The turn ended: its end is recorded behind it (the snapshot too, if nothing needed it); settles when it is. */
  finish(): Promise<void> {
    const port = this.port;
    if (!port || !this.describe) return Promise.resolve();
    // A hook that ran outside the loop may have been at work (a SessionStart hook left running);
    // hooks that are configured but never ran (tools and events the session did not reach) did nothing.
    const hooks = this.hooks;
    if (hooks && (hooks.started?.() ?? 1) > 0 && FIRED_EVENTS.some((event) => hooks.hasHooks(event))) this.activity.lingers = true;
    const activity: TurnActivity = { ...this.activity, ...(this.activity.written ? { written: [...this.activity.written] } : {}) };
    // Tracked, so that whoever waits for the port's snapshots (the list of prompts) waits for this one too.
    return port.track(
      this.recording()
        .catch(() => undefined)
        .then(async () => {
          if (this.taken !== undefined) await port.afterTurn(this.taken, activity);
        }),
    );
  }
}
