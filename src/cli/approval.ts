/**
 * The approval port of an interactive session: when the gate asks, the live line pauses, the
 * user sees the exact command (once: on the tool line right above, drawn in full) or
 * the edit, one short line on why it asks (the gate's whole reason with --verbose; the model
 * always gets it whole), and answers Yes / Yes-and-don't-ask-again (the narrowest rule, saved to
 * .clew/settings.local.json; file edits: all edits for this session) / No with a reason that
 * goes back to the model. Esc, or No without a reason, also stops the turn.
 */
import { relative } from "node:path";
import { fullReason } from "../app/rule-report.ts";
import type { Session } from "../app/session.ts";
import type { ApprovalAnswer, ApprovalPort, PermissionEvaluation, PermissionRequest } from "../permissions/types.ts";
import { briefReason } from "../ui/approval-reason.ts";
import type { ApprovalChoice, ApprovalView } from "../ui/ask.ts";
import { editPreview } from "../ui/diff.ts";
import { cutToWidth } from "../ui/fit.ts";
import { displayPath } from "../ui/format.ts";
import type { LiveLine } from "../ui/live.ts";
import type { Renderer } from "../ui/renderer.ts";
import type { Theme } from "../ui/theme.ts";

const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
/** The rule granted by "Yes, allow all edits during this session" (covers every edit tool). */
const ALL_EDITS_RULE = "Edit";

export interface ApprovalDeps {
  session: () => Session | undefined;
  theme: Theme;
  live: LiveLine;
  renderer: () => Renderer;
  /** Shows the question and returns the answer (clack on a terminal, numbered lines otherwise). */
  ask: (view: ApprovalView) => Promise<ApprovalChoice>;
  /** Stops the running turn (Esc at the prompt, or No without a reason). */
  stopTurn: () => void;
  /** Whether the turn was already stopped: later calls of the same reply are not asked about. */
  turnStopped: () => boolean;
  print: (text: string) => void;
  /** --verbose: the gate's whole reason instead of its short form. */
  verbose: boolean;
}

export interface ViewOptions {
  /** Whether the screen shows this text in full right above the prompt (it may draw it there). */
  shown?: (text: string) => boolean;
  verbose?: boolean;
  /** Terminal columns: the reason is kept to one row. */
  width?: number;
}

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

export function approvalView(request: PermissionRequest, evaluation: PermissionEvaluation, theme: Theme, cwd: string, options: ViewOptions = {}): ApprovalView {
  const { toolName, input } = request;
  // The question names the call; the detail adds only what it does not say.
  let question = `Allow ${toolName}${request.subject ? ` on ${request.subject}` : ""}?`;
  let detail: string[] = [];
  if (toolName === "Bash") {
    question = "Run this command?";
    const command = field(input, "command") ?? request.subject;
    if (!options.shown?.(command)) detail = command.split("\n").map((line) => theme.bold(line));
    const description = field(input, "description");
    if (description) detail.push(theme.dim(description));
  } else if (EDIT_TOOLS.has(toolName)) {
    const path = field(input, "file_path") ?? field(input, "notebook_path") ?? request.subject;
    question = `${toolName === "Write" ? "Write" : "Make this edit to"} ${displayPath(path, cwd)}?`;
    detail = editPreview(toolName, input, theme) ?? [request.subject];
  }
  // Two cells for the indent the prompt gives its detail lines.
  const fit = (line: string) => (options.width === undefined ? line : cutToWidth(line, Math.max(1, options.width - 2)));
  if (options.verbose) detail.push(theme.dim(fullReason(evaluation)));
  else {
    const brief = briefReason(evaluation.reason, { toolName, subject: request.subject, ...(evaluation.rule ? { rule: evaluation.rule } : {}) });
    detail.push(theme.dim(fit(brief)));
    for (const entry of (evaluation.unapplied ?? []).slice(0, 2)) {
      detail.push(theme.dim(fit(entry.fix ? `${entry.rule} is not in force: ${entry.why.split(/, and |; /)[0]} (${entry.fix})` : `${entry.rule} is overruled: ${entry.why}`)));
    }
  }
  // A helper's call says whose it is: several helpers may be asking in turn.
  const view: ApprovalView = { question: request.agent ? `[${request.agent}] ${question}` : question, detail };
  const suggestions = evaluation.suggestions ?? [];
  if (EDIT_TOOLS.has(toolName) && suggestions.length === 0 && !evaluation.rule) view.alwaysLabel = "Yes, allow all edits during this session";
  else if (suggestions.length > 0) view.alwaysLabel = `Yes, and don't ask again for ${suggestions.join(", ")} in ${cwd}`;
  return view;
}

/** How long an approval waits before Notification hooks fire (hooks.md §7). */
const PROMPT_WAIT_MS = 6_000;

export function createApprovalPort(deps: ApprovalDeps): ApprovalPort {
  // One question at a time, even when calls run concurrently.
  let queue: Promise<unknown> = Promise.resolve();
  const port: ApprovalPort = (request, evaluation) => {
    const answer = queue.then(() => askOne(deps, request, evaluation));
    queue = answer.catch(() => undefined);
    return answer;
  };
  return port;
}

async function askOne(deps: ApprovalDeps, request: PermissionRequest, evaluation: PermissionEvaluation): Promise<ApprovalAnswer> {
  if (deps.turnStopped()) return { allow: false };
  const session = deps.session();
  const cwd = session?.info.cwd ?? "/";
  const renderer = deps.renderer();
  renderer.flush();
  const width = deps.live.width();
  const view = approvalView(request, evaluation, deps.theme, cwd, {
    shown: (text) => renderer.showInFull(request.toolUseId, text),
    verbose: deps.verbose,
    ...(width === undefined ? {} : { width }),
  });
  const since = deps.live.since;
  const status = deps.live.pause();
  let choice: ApprovalChoice;
  // Notification hooks (a desktop ping, a chat message) hear of a question left waiting.
  const waiting = setTimeout(() => void session?.notify(`Claude needs your permission to use ${request.toolName}`, "permission_prompt"), PROMPT_WAIT_MS);
  try {
    choice = await deps.ask(view);
  } finally {
    clearTimeout(waiting);
    deps.live.resume(status, since);
  }
  deps.renderer().afterPrompt(request.toolUseId, EDIT_TOOLS.has(request.toolName));
  switch (choice.kind) {
    case "yes":
      return { allow: true };
    case "always": {
      const suggestions = evaluation.suggestions ?? [];
      if (suggestions.length === 0) return { allow: true, remember: [ALL_EDITS_RULE] };
      for (const rule of suggestions) {
        try {
          const saved = session?.allowRule(rule, true);
          if (saved?.file) deps.print(deps.theme.dim(`  Saved ${rule} to ${relative(cwd, saved.file)}`));
        } catch (error) {
          deps.print(deps.theme.red(`  Could not save ${rule}: ${error instanceof Error ? error.message : String(error)}`));
        }
      }
      return { allow: true };
    }
    case "no":
      if (choice.reason === "") deps.stopTurn();
      return choice.reason === "" ? { allow: false } : { allow: false, reason: choice.reason };
    case "cancel":
      deps.stopTurn();
      return { allow: false };
  }
}
