/**
 * Two error channels. A ToolError goes back to the model as an `is_error` tool result and the
 * loop continues. A FatalError ends the turn (auth, budget, usage errors) with a clear message.
 * Tests assert on `code`, never on message text.
 */
export type ErrorCode =
  | "tool_input"
  | "tool_failed"
  | "tool_timeout"
  | "tool_denied"
  | "unknown_tool"
  | "usage"
  | "auth"
  | "api"
  | "aborted"
  | "config"
  | "session_not_found"
  | "io";

export class ClewError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "ClewError";
  }
}

/** An error the model should see and can act on (bad input, missing file, refused write). */
export class ToolError extends ClewError {
  constructor(message: string, code: ErrorCode = "tool_failed") {
    super(code, message);
    this.name = "ToolError";
  }
}

/** An error that ends the run; the CLI prints it to stderr and exits non-zero. */
export class FatalError extends ClewError {
  constructor(code: ErrorCode, message: string, hint?: string) {
    super(code, message, hint);
    this.name = "FatalError";
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
