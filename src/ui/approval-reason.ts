/**
 * The one line an approval prompt gives for why it asks. The gate's reason is written for the
 * model ("Bash command `x` needs approval: no allow rule or read-only check covers `x`.") and
 * goes to it unchanged; the person at the prompt already sees the call, so the line keeps only
 * the cause, in a few words: "no rule allows this command", "matches the ask rule Bash(git push *)".
 */
import { firstSentence } from "./format.ts";

export interface AskedCall {
  toolName: string;
  /** What permission rules match: the command, the path. */
  subject: string;
  /** The rule that decided, when one did (an ask rule). */
  rule?: string;
}

const SHELL_TOOLS = new Set(["Bash", "Monitor", "PowerShell"]);
const MARKER = " needs approval: ";
const UNCOVERED = /^no allow rule or read-only check covers (.+)$/;

/** How the gate names a call at the start of its reason (see permissions/reasons.ts). */
function namedCall(call: AskedCall): string {
  const subject = call.subject.replace(/\s*\n\s*/g, " ⏎ ");
  return SHELL_TOOLS.has(call.toolName) ? `${call.toolName} command \`${subject}\`` : `${call.toolName} of ${subject}`;
}

/** The part after "needs approval: ", without its final full stop; undefined for other wording. */
function cause(reason: string, call: AskedCall): string | undefined {
  const expected = `${namedCall(call)}${MARKER}`;
  const at = reason.startsWith(expected) ? expected.length : reason.indexOf(MARKER) + MARKER.length;
  if (at < MARKER.length) return undefined;
  return reason.slice(at).trim().replace(/\.$/, "");
}

/** Letters and digits only: quotes, spaces and shell operators are what argv and a line differ in. */
function bare(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, "");
}

/** Whether the commands listed (`a`, `b`) are all there is to the command line. */
function namesWholeLine(listed: string, line: string): boolean {
  if (listed.endsWith(" and more")) return false;
  const names = Array.from(listed.matchAll(/`([^`]*)`/g), (match) => match[1] ?? "");
  return names.length > 0 && bare(names.join("")) === bare(line);
}

export function briefReason(reason: string, call: AskedCall): string {
  const why = cause(reason, call);
  if (why === undefined) return firstSentence(reason);
  if (call.rule && why.startsWith(`it matches the ask rule ${call.rule}`)) return `matches the ask rule ${call.rule}`;
  const uncovered = UNCOVERED.exec(why);
  if (uncovered) {
    const listed = uncovered[1] ?? "";
    // Naming every command of the line again, right under it, says nothing new.
    if (namesWholeLine(listed, call.subject)) return listed.includes("`, `") ? "no rule allows any of these commands" : "no rule allows this command";
    return `no rule allows ${listed}`;
  }
  if (why === "no allow rule covers it") return `no rule allows ${call.toolName} here`;
  // The first clause: what follows a semicolon or a parenthesis explains the policy, not the call.
  const clause = why.split(/; | \(/)[0] ?? why;
  return clause.replace(/^it (is )?/, "").replace(/^the path is /, "");
}
