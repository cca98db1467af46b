// A `git` for checkpoint tests, first on PATH: it logs the subcommand of every command the shadow
// repository runs (those with GIT_DIR set) as it starts and ends — `add`, then `done add` — and
// waits while held, before running the real git. The user's own git commands pass straight through.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirectory } from "./clew-process.ts";

export interface GitShim {
  /** PATH with the shim first. */
  path: string;
  commandsFile: string;
  /** Every logged line so far: `add` when a command starts, `done add` when it ends. */
  commands(): string[];
  hold(): void;
  release(): void;
}

export function gitShim(): GitShim {
  const dir = tempDirectory("clew-git-shim-");
  const real = Bun.which("git");
  if (!real) throw new Error("git is not on PATH");
  const log = join(dir, "commands.log");
  const hold = join(dir, "hold");
  writeFileSync(log, "");
  mkdirSync(join(dir, "bin"));
  const script = [
    "#!/bin/sh",
    'if [ -n "$GIT_DIR" ]; then',
    '  sub=""; skip=0',
    '  for arg in "$@"; do',
    '    if [ "$skip" = 1 ]; then skip=0; continue; fi',
    '    case "$arg" in -c) skip=1 ;; -*) ;; *) sub="$arg"; break ;; esac',
    "  done",
    `  echo "$sub" >> '${log}'`,
    // Held at most ~10 s: a snapshot waited for while held fails the test instead of hanging it.
    `  i=0; while [ -e '${hold}' ] && [ "$i" -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done`,
    `  '${real}' "$@"; code=$?`,
    `  echo "done $sub" >> '${log}'`,
    '  exit "$code"',
    "fi",
    `exec '${real}' "$@"`,
    "",
  ].join("\n");
  writeFileSync(join(dir, "bin", "git"), script);
  chmodSync(join(dir, "bin", "git"), 0o755);
  return {
    path: `${join(dir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    commandsFile: log,
    commands: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
    hold: () => writeFileSync(hold, ""),
    release: () => rmSync(hold, { force: true }),
  };
}
