/**
 * Builds the system blocks. The first block is byte-identical for every project, machine and
 * day, and carries the cache breakpoint, so a session anywhere starts with a warm prefix; the
 * environment block after it is per-project and contains nothing that changes per turn.
 */
import basePrompt from "./prompts/system.md" with { type: "text" };
import type { TextBlockParam } from "../model/types.ts";

export interface EnvironmentFacts {
  cwd: string;
  platform: string;
  shell: string;
  isGitRepo: boolean;
  model: string;
}

export interface SystemPromptOptions {
  /** `--system-prompt`: replaces the built-in prompt entirely. */
  replace?: string;
  /** `--append-system-prompt`: added after the environment block. */
  append?: string;
  /** Rendered instruction files (AGENTS.md, CLAUDE.md, rules, auto memory). */
  instructions?: string;
  /** Settings `language`: the language the model answers the user in. */
  language?: string;
  /** The chosen output style's block (app/output-style-setup.ts). */
  outputStyle?: string;
  /** One-line catalogues (skills, agents) filled by later features. */
  catalogues?: string;
  /**
   * `--exclude-dynamic-system-prompt-sections`: the environment block and the instruction files
   * are left out (see `dynamicSections`), so the system prompt is the same on every machine.
   */
  excludeDynamic?: boolean;
}

export function environmentBlock(facts: EnvironmentFacts): string {
  return [
    "<env>",
    `Working directory: ${facts.cwd}`,
    `Is a git repository: ${facts.isGitRepo ? "yes" : "no"}`,
    `Platform: ${facts.platform}`,
    `Shell: ${facts.shell}`,
    `Model: ${facts.model}`,
    "</env>",
  ].join("\n");
}

/**
 * Two cache breakpoints: after the built-in prompt (identical everywhere) and after the last
 * block (identical for every session of this project until its instruction files change).
 */
export function buildSystem(facts: EnvironmentFacts, options: SystemPromptOptions = {}): TextBlockParam[] {
  const base = (options.replace ?? basePrompt).trim();
  const blocks: TextBlockParam[] = [{ type: "text", text: base, cache_control: { type: "ephemeral" } }];
  if (!options.excludeDynamic) blocks.push({ type: "text", text: environmentBlock(facts) });
  const language = options.language?.trim() ? languageBlock(options.language.trim()) : undefined;
  for (const extra of [language, options.outputStyle, options.append, options.excludeDynamic ? undefined : options.instructions, options.catalogues]) {
    if (extra && extra.trim() !== "") blocks.push({ type: "text", text: extra.trim() });
  }
  const last = blocks[blocks.length - 1] as TextBlockParam;
  blocks[blocks.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
  return blocks;
}

/** After the shared first block, so a language setting never costs the prompt cache shared by every session. */
function languageBlock(language: string): string {
  return `# Language\nAlways respond to the user in ${language}. Code, identifiers, commands and file paths stay as they are.`;
}

/** What `excludeDynamic` leaves out of the system prompt, for the conversation's first user message. */
export function dynamicSections(facts: EnvironmentFacts, instructions: string | undefined): string {
  return [environmentBlock(facts), instructions?.trim() ?? ""].filter((part) => part !== "").join("\n\n");
}
