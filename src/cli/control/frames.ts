/**
 * Frames only a stream-json input session writes: its state for the host (Claude Code's
 * `system/session_state_changed`, sent when the host says it reads them), an error naming a bad
 * input line, and the echo of a user message (`--replay-user-messages`).
 */
import type { ContentBlockParam } from "../../model/types.ts";
import type { Frame } from "./channel.ts";

export type SessionState = "idle" | "running" | "requires_action";

/** Writes a state frame on each change; silent when the host did not ask for them. */
export class SessionStateFrames {
  private current: SessionState | undefined;

  constructor(
    private readonly write: (frame: Frame) => void,
    private readonly enabled: boolean,
    private readonly sessionId: () => string,
  ) {}

  set(state: SessionState): void {
    if (!this.enabled || state === this.current) return;
    this.current = state;
    this.write({ type: "system", subtype: "session_state_changed", state, session_id: this.sessionId(), uuid: crypto.randomUUID() });
  }
}

/** One bad line of input: the session goes on without it. */
export function inputErrorFrame(message: string, line: number, sessionId: string | undefined): Frame {
  return { type: "system", subtype: "input_error", error: message, line, ...(sessionId ? { session_id: sessionId } : {}), uuid: crypto.randomUUID() };
}

export function replayFrame(content: string | ContentBlockParam[], sessionId: string, uuid: string): Frame {
  return {
    type: "user",
    message: { role: "user", content },
    parent_tool_use_id: null,
    session_id: sessionId,
    uuid,
    isReplay: true,
  };
}
