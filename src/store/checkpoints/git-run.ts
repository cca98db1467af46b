/** One command of a shadow repository's git, through simple-git, with git's own words in its errors. */
import type { SimpleGit } from "simple-git";

/** Attempts of a command that writes the index while another holds its lock (about half a second in all). */
const LOCK_TRIES = 10;

/**
 * A command that writes the index, tried again while another's holds its lock: the project's
 * sessions share this repository, and the other's command takes milliseconds.
 */
export async function locking(git: SimpleGit, args: string[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(git, args);
    } catch (error) {
      if (attempt >= LOCK_TRIES || !(error instanceof Error) || !/index\.lock': File exists/.test(error.message)) throw error;
      await Bun.sleep(10 * attempt);
    }
  }
}

/** A line of git's trace (GIT_TRACE, see ShadowRepo's client): noise in an error, which is git's own message without it. */
const TRACE_LINE = /^\d{2}:\d{2}:\d{2}\.\d+ \S+:\d+ +trace: /;

export async function run(git: SimpleGit, args: string[]): Promise<string> {
  try {
    return await git.raw(args);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const message = error.message
      .split("\n")
      .filter((line) => !TRACE_LINE.test(line))
      .join("\n")
      .trim();
    throw new Error(message || error.message, { cause: error });
  }
}
