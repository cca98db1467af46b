/** What a slash command can see and do; the REPL implements it. */
import type { ResumeRequest } from "../../app/resume.ts";
import type { Session } from "../../app/session.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import type { Environment } from "../../settings/paths.ts";
import type { Choice } from "../../ui/ask.ts";
import type { Theme } from "../../ui/theme.ts";

export interface SlashContext {
  readonly session: Session;
  readonly env: Environment;
  readonly theme: Theme;
  /** Whether questions can use the interactive prompt library. */
  readonly interactive: boolean;
  /** The mode the session started in: bypassPermissions is only reachable from there. */
  readonly startMode: PermissionMode;
  readonly commands: readonly SlashCommand[];
  print(text: string): void;
  error(text: string): void;
  /** Runs one model turn with this prompt, rendered like a typed one. */
  runPrompt(prompt: string): Promise<void>;
  compact(instructions: string | undefined): Promise<void>;
  /** Closes the current session and opens a new (or resumed) one; false when that failed. */
  switchSession(resume?: ResumeRequest): Promise<boolean>;
  choose<T extends string>(message: string, choices: Choice<T>[]): Promise<T | undefined>;
  setMode(mode: PermissionMode): void;
  /** Opens a file in $EDITOR with the terminal handed over; the editor's exit code. */
  openEditor(path: string): Promise<number | undefined>;
  exit(): void;
}

export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** Argument synopsis for /help, e.g. "[instructions]". */
  usage?: string;
  summary: string;
  run(args: string, ctx: SlashContext): Promise<void> | void;
}
