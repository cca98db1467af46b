/** /init: asks the model to study the repository and write AGENTS.md. */
import type { SlashCommand } from "./types.ts";

export const INIT_PROMPT = `Please analyze this codebase and create an AGENTS.md file in the repository root, which will be given to future coding agents working in this repository.

Include:
1. The commands used most often: build, lint, test, and how to run a single test.
2. The high-level architecture: the big-picture structure that takes reading several files to understand.
3. Conventions that are specific to this project (not generic advice).

If there is already an AGENTS.md (or a CLAUDE.md, README.md, .cursorrules, .cursor/rules/ or .github/copilot-instructions.md), build on the important parts rather than repeating them. Keep it concise, do not invent information, and do not list every file. Start the file with:

# AGENTS.md

This file gives guidance to coding agents working with the code in this repository.`;

export const initCommand: SlashCommand = {
  name: "init",
  summary: "Ask the model to write an AGENTS.md for this repository",
  run: (_args, ctx) => ctx.runPrompt(INIT_PROMPT),
};
