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

export function buildSystem(facts: EnvironmentFacts, options: SystemPromptOptions = {}): TextBlockParam[] {
  const base = (options.replace ?? basePrompt).trim();
  const blocks: TextBlockParam[] = [
    { type: "text", text: base, cache_control: { type: "ephemeral" } },
    { type: "text", text: environmentBlock(facts) },
  ];
  if (options.append && options.append.trim() !== "") blocks.push({ type: "text", text: options.append.trim() });
  return blocks;
}
