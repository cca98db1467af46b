/**
 * Runs a skill or custom command — typed as `/name args` or called through the Skill tool —
 * into the text the model receives. Everything the body asks for passes the permission gate: a
 * `` !`cmd` `` runs only when the rules allow it outright (no prompt; a skill's `allowed-tools`
 * grant counts, until the user's next message), an `@file` is attached only when reading it is
 * allowed.
 */
import { resolve } from "node:path";
import type { FileOutcome, Invocable, RenderPort, ShellOutcome } from "../extensions/index.ts";
import type { PermissionGate } from "../permissions/gate.ts";
import type { ToolSession } from "../tools/types.ts";
import type { LazyRegistry } from "./extensions-setup.ts";

export interface InvocationDeps {
  registry: LazyRegistry;
  gate: PermissionGate;
  toolSession: ToolSession;
  sessionId: string;
  /** Called once an item is about to render (registers its frontmatter hooks). */
  onInvoke?: (item: Invocable) => void;
}

export type Rendered = { ok: true; text: string } | { ok: false; message: string };

const SHELL_TIMEOUT_MS = 120_000;
const MAX_FILE_CHARS = 100_000;

function renderPort(deps: InvocationDeps, signal: AbortSignal): RenderPort {
  const { gate, toolSession } = deps;
  return {
    async runShell(action): Promise<ShellOutcome> {
      const decision = await gate.peek({ toolName: "Bash", access: "exec", subject: action.command, input: { command: action.command }, toolUseId: "skill-expansion" });
      if (decision.behavior === "deny") return { status: "denied", reason: decision.reason };
      const { runShell } = await import("../tools/shared/shell.ts");
      const run = await runShell({
        command: action.command,
        cwd: toolSession.cwd,
        env: toolSession.env,
        maxOutputChars: toolSession.limits.bashMaxOutputChars,
        timeoutMs: SHELL_TIMEOUT_MS,
        signal,
      });
      const output = [run.stdout, run.stderr].filter((text) => text !== "").join("\n").trimEnd();
      return { status: "ran", exitCode: run.exitCode ?? 1, output };
    },
    async readFile(action): Promise<FileOutcome> {
      const path = resolve(toolSession.cwd, action.path);
      const decision = await gate.peek({ toolName: "Read", access: "read", subject: path, input: { file_path: path }, toolUseId: "skill-expansion" });
      if (decision.behavior === "deny") return { status: "unavailable", reason: decision.reason };
      const file = Bun.file(path);
      if (!(await file.exists())) return { status: "unavailable", reason: "no such file" };
      const text = await file.text();
      return { status: "read", content: text.length > MAX_FILE_CHARS ? `${text.slice(0, MAX_FILE_CHARS)}\n[… cut at ${MAX_FILE_CHARS} characters; Read the file for the rest]` : text };
    },
  };
}

/** The item rendered with `args`; its `allowed-tools` are granted until the user's next message. */
export async function renderItem(deps: InvocationDeps, item: Invocable, args: string, signal: AbortSignal): Promise<Rendered> {
  const { grantedRules, renderInvocation, skillMessage } = await import("../extensions/index.ts");
  const body = await (await deps.registry.get()).loadBody(item);
  if (!body.ok) return { ok: false, message: body.problem.message };
  const vars = {
    sessionId: deps.sessionId,
    projectDir: deps.toolSession.projectDir,
    ...(item.source.root && item.source.scope === "plugin" ? { pluginRoot: item.source.root } : {}),
    ...(item.source.pluginData ? { pluginData: item.source.pluginData } : {}),
  };
  deps.onInvoke?.(item);
  const grants = grantedRules(item, vars);
  if (grants.length > 0) deps.gate.grantForTurn(grants);
  const result = await renderInvocation({ item, body: body.body, args, vars }, renderPort(deps, signal));
  if (!result.ok) return { ok: false, message: result.message };
  const attachments = result.attachments.map((file) => `\n\nContents of ${file.path}:\n${file.content}`).join("");
  const missing = result.unavailable.map((file) => `\n\n(${file.path} was not attached: ${file.reason})`).join("");
  const text = `${result.text}${attachments}${missing}`;
  const forked = item.context === "fork" ? "\n\n(This skill asks to run as a subagent (context: fork); clew runs it inline until subagents land.)" : "";
  return { ok: true, text: item.kind === "skill" ? `${skillMessage(item, text)}${forked}` : `${text}${forked}` };
}
