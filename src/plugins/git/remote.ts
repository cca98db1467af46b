/**
 * What clew checks about a git remote before handing it to git: that it cannot be read as an
 * option, and which host it names (for auth advice and the GitHub token).
 */

export class GitFailure extends Error {
  constructor(
    /** `auth`: credentials refused or missing; `network`: host unreachable; `not-found`: no such repository or ref; `invalid`: bad URL or ref; `git`: anything else. */
    readonly code: "auth" | "network" | "not-found" | "invalid" | "git",
    message: string,
  ) {
    super(message);
    this.name = "GitFailure";
  }
}

/** Refs and shas as git accepts them, and never starting with `-` (which git would read as an option). */
export function assertSafeRef(ref: string, what: string): void {
  if (!/^[A-Za-z0-9_][A-Za-z0-9._\/@+-]*$/.test(ref) || ref.includes("..") || ref.endsWith(".lock")) {
    throw new GitFailure("invalid", `${what} '${ref}' is not a valid git branch, tag or commit name.`);
  }
}

export function assertSafeUrl(url: string): void {
  if (url.startsWith("-") || /\s/.test(url) || url.length === 0) {
    throw new GitFailure("invalid", `'${url}' is not a git URL clew can clone (expected https://…, ssh://…, git@host:path or file://…).`);
  }
}

/** The host a remote names: `github.com` for `git@github.com:o/r`, `localhost` for file:// (reported as "this machine"). */
export function hostOf(url: string): string {
  const scp = /^[^/@:]+@([^:/]+):/.exec(url);
  if (scp?.[1]) return scp[1];
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "file:") return "this machine";
    return parsed.hostname || url;
  } catch {
    return url;
  }
}

export function isGithubHttps(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && parsed.hostname.toLowerCase() === "github.com";
  } catch {
    return false;
  }
}

/** Never show credentials someone put into a URL. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z+]+:\/\/)[^/@]*@/i, "$1***@");
}

const AUTH_PATTERNS = [
  /authentication failed/i,
  /could not read (username|password)/i,
  /terminal prompts disabled/i,
  /permission denied \(publickey/i,
  /host key verification failed/i,
  /returned error: 40[13]/i,
  /invalid username or password/i,
  /access denied/i,
];
const NETWORK_PATTERNS = [/could not resolve host/i, /connection refused/i, /timed out/i, /network is unreachable/i, /failed to connect/i, /connection reset/i, /unable to access/i, /could not connect/i];
const NOT_FOUND_PATTERNS = [/repository .*not found/i, /does not appear to be a git repository/i, /couldn't find remote ref/i, /not our ref/i, /no such remote ref/i, /remote branch .* not found/i, /returned error: 404/i, /not a git repository/i];

/** What git prints on the way when not run quiet (see clone.ts); it never explains a failure. */
const PROGRESS = /^(Cloning into |Initialized empty Git repository |From |\s+\* (branch|\[new)|HEAD is now at )/;

/** Turns git's stderr into one clear sentence naming the host and what to try. */
export function describeGitError(error: unknown, url: string, action: string): GitFailure {
  if (error instanceof GitFailure) return error;
  const text = error instanceof Error ? error.message : String(error);
  const host = hostOf(url);
  const shown = redactUrl(url);
  // Progress lines of the steps (they are not run quiet, see clone.ts) say nothing about a failure.
  const detail = text.trim().split("\n").filter((line) => line.trim() !== "" && !PROGRESS.test(line)).slice(-3).join(" ").slice(0, 400);
  if (AUTH_PATTERNS.some((pattern) => pattern.test(text))) {
    const advice = host === "github.com"
      ? "run `gh auth login` (so git's credential helper has a token), set GITHUB_TOKEN or GH_TOKEN for https, or use the ssh form git@github.com:owner/repo.git with a key loaded in ssh-agent"
      : `check that git can reach it from your shell (\`git ls-remote ${shown}\`): a credential helper for https, or an ssh key loaded in ssh-agent with ${host} in ~/.ssh/known_hosts`;
    return new GitFailure("auth", `Could not ${action} ${shown}: ${host} refused the credentials (or asked for some). To fix: ${advice}. (git said: ${detail})`);
  }
  if (NOT_FOUND_PATTERNS.some((pattern) => pattern.test(text))) {
    const privateHint = host === "github.com" ? " If it is private, run `gh auth login` or set GITHUB_TOKEN." : "";
    return new GitFailure("not-found", `Could not ${action} ${shown}: ${host} has no such repository or ref.${privateHint} (git said: ${detail})`);
  }
  if (NETWORK_PATTERNS.some((pattern) => pattern.test(text))) {
    return new GitFailure("network", `Could not ${action} ${shown}: ${host} could not be reached; check the network or proxy settings and try again. (git said: ${detail})`);
  }
  return new GitFailure("git", `Could not ${action} ${shown}: ${detail}`);
}
