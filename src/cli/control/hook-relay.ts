/**
 * The host's hook callbacks (the Agent SDK's `hooks` option) as hooks of the session: each
 * callback becomes an `http` hook to a loopback relay inside this process, which puts the hook's
 * input to the host as a `hook_callback` control request and answers with the host's output —
 * so matching, timeouts, `if`, decisions and policy are the hook engine's, as for any hook.
 */
import { errorMessage } from "../../util/errors.ts";
import type { ControlChannel } from "./channel.ts";

export interface HookRelay {
  /** The settings with the relay's hooks added, for the command-line settings layer. */
  addTo(settings: Record<string, unknown>): Record<string, unknown>;
  callbackCount: number;
  close(): void;
}

export interface CallbackMatcher {
  matcher?: string;
  hookCallbackIds: string[];
  timeout?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `initialize.hooks`: event name → matchers, each with the callback ids to run. */
export function parseHookCallbacks(hooks: unknown): { ok: true; events: Record<string, CallbackMatcher[]> } | { ok: false; error: string } {
  if (!isRecord(hooks)) return { ok: false, error: "initialize.hooks must be an object of hook event name to matchers" };
  const events: Record<string, CallbackMatcher[]> = {};
  for (const [event, matchers] of Object.entries(hooks)) {
    if (!Array.isArray(matchers)) return { ok: false, error: `initialize.hooks.${event} must be an array of matchers` };
    events[event] = [];
    for (const [index, raw] of matchers.entries()) {
      const where = `initialize.hooks.${event}[${index}]`;
      if (!isRecord(raw) || !Array.isArray(raw.hookCallbackIds) || !raw.hookCallbackIds.every((id) => typeof id === "string")) {
        return { ok: false, error: `${where} must have hookCallbackIds, an array of callback ids` };
      }
      if (raw.matcher !== undefined && raw.matcher !== null && typeof raw.matcher !== "string") return { ok: false, error: `${where}.matcher must be a string` };
      if (raw.timeout !== undefined && raw.timeout !== null && (typeof raw.timeout !== "number" || raw.timeout <= 0)) return { ok: false, error: `${where}.timeout must be a positive number of seconds` };
      events[event]?.push({
        hookCallbackIds: raw.hookCallbackIds as string[],
        ...(typeof raw.matcher === "string" ? { matcher: raw.matcher } : {}),
        ...(typeof raw.timeout === "number" ? { timeout: raw.timeout } : {}),
      });
    }
  }
  return { ok: true, events };
}

/** The settings with one http hook per host callback added after their own `hooks`. */
export function withHookCallbacks(base: Record<string, unknown>, events: Record<string, CallbackMatcher[]>, urlFor: (callbackId: string) => string): Record<string, unknown> {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, matchers] of Object.entries(isRecord(base.hooks) ? base.hooks : {})) if (Array.isArray(matchers)) hooks[event] = [...matchers];
  for (const [event, matchers] of Object.entries(events)) {
    const added = matchers.map((matcher) => ({
      ...(matcher.matcher !== undefined ? { matcher: matcher.matcher } : {}),
      hooks: matcher.hookCallbackIds.map((id) => ({ type: "http", url: urlFor(id), ...(matcher.timeout !== undefined ? { timeout: matcher.timeout } : {}) })),
    }));
    hooks[event] = [...(hooks[event] ?? []), ...added];
  }
  return { ...base, hooks };
}

export function startHookRelay(events: Record<string, CallbackMatcher[]>, channel: ControlChannel): HookRelay {
  const token = crypto.randomUUID();
  const known = new Set(Object.values(events).flatMap((matchers) => matchers.flatMap((matcher) => matcher.hookCallbackIds)));
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const [, secret, callbackId = ""] = new URL(request.url).pathname.split("/").map(decodeURIComponent);
      if (request.method !== "POST" || secret !== token || !known.has(callbackId)) return new Response("not found", { status: 404 });
      let input: unknown;
      try {
        input = await request.json();
      } catch {
        return new Response("the hook input is not JSON", { status: 400 });
      }
      const toolUseId = isRecord(input) && typeof input.tool_use_id === "string" ? input.tool_use_id : undefined;
      try {
        const output = await channel.request({ subtype: "hook_callback", callback_id: callbackId, input, ...(toolUseId ? { tool_use_id: toolUseId } : {}) }, request.signal);
        return Response.json(output);
      } catch (error) {
        // A non-2xx answer is the hook engine's non-blocking error, reported with this text.
        return new Response(`the host's hook callback ${callbackId} failed: ${errorMessage(error)}`, { status: 502 });
      }
    },
  });
  const base = `http://127.0.0.1:${server.port}/${token}/`;
  return {
    addTo: (settings) => withHookCallbacks(settings, events, (id) => `${base}${encodeURIComponent(id)}`),
    callbackCount: known.size,
    close: () => void server.stop(true),
  };
}
