/**
 * `clew -p "/deplyo prod"`: a prompt whose first word looks like a slash command but names none
 * stops the run before any request (Claude Code sends it to the model as text, and a CI job
 * "succeeds" doing the wrong thing). A path (`/tmp is full`, `/usr/bin/foo …`), an MCP prompt
 * (`/mcp__server__prompt`: the MCP layer answers for those) and the built-ins `-p` runs itself
 * pass. Interactive clew has its own check (repl.ts); stream-json input is the host's business.
 */
import { existsSync } from "node:fs";
import { editDistance } from "../util/edit-distance.ts";
import { FatalError } from "../util/errors.ts";
import { HEADLESS_COMMANDS } from "./headless-commands.ts";


/** Claude Code's command-name characters: letters, digits, `-`, `_`, `:` and `.`. */
const COMMAND_WORD = /^\/([\p{L}\p{N}_:.-]+)(?:\s|$)/u;
const MAX_DISTANCE = 2;

/** What the session's extension registry says of a typed `/name`. */
export interface CommandLookup {
  /** A skill or command of that name exists (one the user may not type too: expanding it says why). */
  known: boolean;
  /** Every skill and command the user may type, for the suggestion. */
  names: readonly string[];
}

export interface CommandSource {
  lookUpCommand(word: string): Promise<CommandLookup>;
}

/** The command name the prompt starts with, when its first word reads as one and is no existing path. */
export function commandWord(prompt: string, exists: (path: string) => boolean = existsSync): string | undefined {
  const name = COMMAND_WORD.exec(prompt.trimStart())?.[1];
  if (name === undefined || name.startsWith("mcp__") || exists(`/${name}`)) return undefined;
  return name;
}

/** The known name closest to a typo: within two edits (case aside), else the shortest it begins. */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    const lower = name.toLowerCase();
    // A plugin's `toolkit:deploy` answers to `/deploy` too, so `/deplyo` is close to it.
    const bare = lower.slice(lower.lastIndexOf(":") + 1);
    const distance = Math.min(editDistance(wanted, lower, MAX_DISTANCE), editDistance(wanted, bare, MAX_DISTANCE));
    const score = distance <= MAX_DISTANCE && distance < wanted.length ? distance : lower.startsWith(wanted) || bare.startsWith(wanted) ? MAX_DISTANCE + 1 : undefined;
    if (score === undefined) continue;
    if (!best || score < best.score || (score === best.score && name.length < best.name.length)) best = { name, score };
  }
  return best?.name;
}

const SEND_AS_TEXT = 'To send a prompt that starts with "/" to the model as it is, begin it with another word, or pass --disable-slash-commands (which also turns skills and commands off).';

/**
 * The usage error for a prompt that starts with an unknown `/name`, or undefined when it may run.
 * The registry is read only for a prompt whose first word looks like a command.
 */
export async function unknownCommandError(prompt: string, session: CommandSource, exists?: (path: string) => boolean): Promise<FatalError | undefined> {
  const name = commandWord(prompt, exists);
  if (name === undefined || HEADLESS_COMMANDS.includes(name)) return undefined;
  const lookup = await session.lookUpCommand(`/${name}`);
  if (lookup.known) return undefined;
  const { COMMANDS } = await import("./slash/index.ts");
  const lower = name.toLowerCase();
  if (COMMANDS.some((command) => command.name === lower || command.aliases?.includes(lower))) {
    return new FatalError("usage", `error: /${name} works only in interactive clew, not with -p.`, `Run clew without -p to use it (flags such as --model and --effort set the same things for a -p run). ${SEND_AS_TEXT}`);
  }
  const suggestion = closestName(name, [...lookup.names, ...HEADLESS_COMMANDS]);
  return new FatalError("usage", `error: unknown command /${name}${suggestion ? `\nDid you mean /${suggestion}?` : ""}`, SEND_AS_TEXT);
}
