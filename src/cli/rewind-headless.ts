/**
 * `clew -p -r ID --rewind-to N` (or `-c --rewind-to N`): the session goes back to just before its
 * N-th prompt — files and conversation — prints what was restored and exits. No prompt is sent.
 * With `--output-format json` (or stream-json) one JSON object says the same:
 * `{type:"rewind", subtype:"success", is_error:false, session_id, rewound_to, prompt,
 *   files:{restored, removed, kept}, conversation:{messages}|null}`.
 */
import type { Environment } from "../settings/paths.ts";
import { FatalError } from "../util/errors.ts";
import type { CliOptions } from "./args.ts";

export interface RewindIO {
  write(text: string): void;
  writeError(text: string): void;
}

export async function runHeadlessRewind(options: CliOptions, env: Environment, version: string, io: RewindIO): Promise<number> {
  const prompt = options.rewindTo;
  if (prompt === undefined) return 0;
  const request = options.continue ? { kind: "continue" as const } : typeof options.resume === "string" ? { kind: "id" as const, id: options.resume } : undefined;
  if (!request) throw new FatalError("usage", "error: --rewind-to needs the session to rewind: clew -p -r <session id> --rewind-to N (or -c for the latest).");
  if (options.prompt !== undefined && options.prompt.trim() !== "") {
    throw new FatalError("usage", "error: --rewind-to rewinds the session and exits; it takes no prompt.", `Run the prompt afterwards: clew -p -r ${request.kind === "id" ? request.id : "<session id>"} "<prompt>".`);
  }
  const { describeRewind, rewindStoredSession } = await import("../app/session-rewind.ts");
  const { sessionId, outcome, conversationKept } = await rewindStoredSession(env, request, prompt, version);
  const files = outcome.files ?? { restored: [], removed: [], kept: [] };
  if (options.outputFormat !== "text") {
    const result = {
      type: "rewind",
      subtype: "success",
      is_error: false,
      session_id: sessionId,
      rewound_to: outcome.prompt,
      prompt: outcome.text,
      files: { restored: files.restored, removed: files.removed, kept: files.kept },
      conversation: conversationKept ? { messages: outcome.messages ?? 0 } : null,
    };
    io.write(`${JSON.stringify(result)}\n`);
  } else {
    const title = outcome.text ? ` (“${oneLine(outcome.text)}”)` : "";
    io.write(`Rewound session ${sessionId} to just before prompt ${outcome.prompt}${title}.\n`);
    for (const line of describeRewind(outcome)) io.write(`${line}\n`);
  }
  if (!conversationKept) io.writeError(`clew: the conversation was left as it is: prompt ${outcome.prompt} has no recorded place in the transcript (it predates checkpoint records that carry one).\n`);
  return 0;
}

function oneLine(text: string): string {
  const first = text.split("\n")[0] ?? "";
  return first.length > 60 ? `${first.slice(0, 59)}…` : first;
}
