/**
 * A turn's loop dependencies that wait for the prompt's checkpoint before anything in the loop can
 * change a file — a tool call or a Stop hook — so the first request goes out while the snapshot is
 * still being taken.
 */
import type { LoopDeps } from "../loop/loop.ts";

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
