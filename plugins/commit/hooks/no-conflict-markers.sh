#!/bin/sh
# PreToolUse hook: a Bash call that runs `git commit` is refused (exit 2, reason on stderr) while
# the staged changes still hold merge conflict markers. Anything else passes untouched.
input=$(cat)
case "$input" in
  *'"command"'*'git commit'*) ;;
  *) exit 0 ;;
esac
if git diff --cached -U0 2>/dev/null | grep -qE '^\+(<<<<<<< |=======$|>>>>>>> )'; then
  echo "The staged changes still contain merge conflict markers (<<<<<<<, =======, >>>>>>>). Resolve them, stage the files again, then commit." >&2
  exit 2
fi
exit 0
