/**
 * A repository's own git configuration can make git's read-only commands run programs: a
 * `core.fsmonitor` hook on `git status`, a pager, an external diff or textconv driver on `git diff`
 * and `git log -p`, a clean filter on a changed file, a `gpg.program` on `--show-signature`, an
 * included file that sets any of these. A cloned repository never brings its `.git/config`, but a
 * folder from an archive, a shared disk or another tool can; then `git status` is not read-only
 * there. The user's own (global, system) configuration is theirs and is not looked at.
 */

/** `section.key` names (subsection dropped) whose value is a program git may run on a read. */
const RUNS_PROGRAM = /^(?:core\.(?:fsmonitor|pager)|pager\.[^.]+|diff\.(?:external|[^.]+\.(?:command|textconv))|filter\.[^.]+\.(?:clean|smudge|process)|gpg(?:\.[^.]+)?\.program|include\.path|includeif\.[^.]+\.path)$/;

/** Values that run nothing of the repository's: core.fsmonitor's built-in daemon, Git LFS's own filter. */
function harmless(key: string, value: string): boolean {
  if (key === "core.fsmonitor") return /^(?:true|false|yes|no|on|off|0|1|)$/i.test(value);
  if (/^filter\.lfs\./.test(key)) return /^git-lfs (?:clean|smudge|filter-process)\b/.test(value);
  return false;
}

/** The first setting in a git config file's text that would run a program, as `section.key`; undefined when none does. */
export function programSetting(text: string): string | undefined {
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      // `[diff "x"]` and the older `[diff.x]` both name section diff, subsection x.
      const [name = "", ...rest] = (header[1] ?? "").split(".");
      section = [name.toLowerCase(), ...(header[2] !== undefined ? [header[2]] : rest)].join(".");
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry || section === "") continue;
    const parts = section.split(".");
    const key = [parts[0], ...parts.slice(1).map(() => "x"), (entry[1] ?? "").toLowerCase()].join(".");
    const named = [parts[0], ...parts.slice(1), (entry[1] ?? "").toLowerCase()].join(".");
    const value = (entry[2] ?? "").replace(/^"(.*)"$/, "$1").trim();
    if (RUNS_PROGRAM.test(key) && !harmless(named, value)) return named;
  }
  return undefined;
}
