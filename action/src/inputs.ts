/**
 * The action's inputs (action.yml), checked once and turned into clew's command line. Paths in
 * inputs are relative to the step's directory (the workspace), like `working-directory` itself,
 * and reach clew as absolute paths, so nothing depends on where clew is started.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";

/** clew's own cap on piped stdin (cli-headless.md §1); a bigger prompt file is refused here, by name. */
export const PROMPT_FILE_LIMIT_BYTES = 10 * 1024 * 1024;

/** src/update/source.ts's DEFAULT_RELEASE_URL: the release host is a placeholder until the project has one. */
export const DEFAULT_DOWNLOAD_URL = "https://clew.invalid/releases/latest";

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

export interface ActionInputs {
  /** Passed as the prompt argument. */
  prompt: string | undefined;
  /** Absolute path; its text is piped on stdin (with `prompt`, clew joins them: file text, blank line, prompt). */
  promptFile: string | undefined;
  model: string | undefined;
  maxTurns: number | undefined;
  /** One rule list per line; clew splits each on commas and spaces outside parentheses. */
  allowedTools: string[];
  disallowedTools: string[];
  /** A settings file (absolute) or inline JSON. */
  settings: string | undefined;
  /** Inline JSON (one config) or files (absolute), one per line. */
  mcpConfigs: string[];
  maxBudgetUsd: number | undefined;
  /** A release folder or its manifest.json: https://…, http://…, file://… or a path. */
  downloadUrl: string;
  /** PEM text or a file holding it; undefined: the project's key built into the action. */
  trustedKey: string | undefined;
  /** A binary already on the runner: a path, or a command name looked up on PATH. */
  clewPath: string | undefined;
  /** Absolute. */
  workingDirectory: string;
}

export type InputReader = (name: string) => string;

function optional(read: InputReader, name: string): string | undefined {
  const value = read(name).trim();
  return value === "" ? undefined : value;
}

function lines(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

function positiveWhole(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InputError(`input ${name}: '${value}' is not a positive whole number (e.g. ${name}: 10)`);
  return parsed;
}

function positiveAmount(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InputError(`input ${name}: '${value}' is not a positive number of US dollars (e.g. ${name}: 0.50)`);
  return parsed;
}

function existingFile(name: string, value: string, base: string): string {
  const path = resolve(base, value);
  if (!existsSync(path)) throw new InputError(`input ${name}: ${path} does not exist (relative paths start at the workspace, ${base})`);
  if (!statSync(path).isFile()) throw new InputError(`input ${name}: ${path} is not a file`);
  return path;
}

const looksLikeJson = (value: string): boolean => value.startsWith("{");

/** A file argument stays a file (made absolute); inline JSON is passed as it is. */
function fileOrJson(name: string, value: string, base: string): string {
  return looksLikeJson(value) ? value : existingFile(name, value, base);
}

/** Reads and checks every input; `base` is the step's directory (GITHUB_WORKSPACE). */
export function readInputs(read: InputReader, base: string): ActionInputs {
  const prompt = optional(read, "prompt");
  const promptFileInput = optional(read, "prompt-file");
  if (prompt === undefined && promptFileInput === undefined) {
    throw new InputError("no prompt: set the prompt input (the task as text) or prompt-file (a file holding it)");
  }
  const promptFile = promptFileInput === undefined ? undefined : existingFile("prompt-file", promptFileInput, base);
  if (promptFile !== undefined && statSync(promptFile).size > PROMPT_FILE_LIMIT_BYTES) {
    throw new InputError(`input prompt-file: ${promptFile} is over clew's 10 MB prompt limit; point the prompt at the file instead (e.g. "Read ${promptFileInput} and …")`);
  }
  const workingDirectory = resolve(base, optional(read, "working-directory") ?? ".");
  if (!existsSync(workingDirectory) || !statSync(workingDirectory).isDirectory()) {
    throw new InputError(`input working-directory: ${workingDirectory} is not a directory (relative paths start at the workspace, ${base})`);
  }
  const settings = optional(read, "settings");
  const mcpConfig = optional(read, "mcp-config");
  const clewPath = optional(read, "clew-path");
  return {
    prompt,
    promptFile,
    model: optional(read, "model"),
    maxTurns: positiveWhole("max-turns", optional(read, "max-turns")),
    allowedTools: lines(optional(read, "allowed-tools")),
    disallowedTools: lines(optional(read, "disallowed-tools")),
    settings: settings === undefined ? undefined : fileOrJson("settings", settings, base),
    mcpConfigs: mcpConfig === undefined ? [] : looksLikeJson(mcpConfig) ? [mcpConfig] : lines(mcpConfig).map((file) => existingFile("mcp-config", file, base)),
    maxBudgetUsd: positiveAmount("max-budget-usd", optional(read, "max-budget-usd")),
    downloadUrl: optional(read, "download-url") ?? DEFAULT_DOWNLOAD_URL,
    trustedKey: optional(read, "trusted-key"),
    // A bare name (`clew`) is looked up on PATH later; anything with a slash is a path.
    clewPath: clewPath === undefined ? undefined : clewPath.includes("/") || isAbsolute(clewPath) ? resolve(base, clewPath) : clewPath,
    workingDirectory,
  };
}

/**
 * clew's arguments for the inputs: print mode with the json result, then the flags, then `--` and
 * the prompt, so a prompt starting with `-` is never read as a flag. `--flag=value` keeps a list
 * flag from taking the next argument as one more value.
 */
export function clewArguments(inputs: ActionInputs): string[] {
  const args = ["-p", "--output-format", "json"];
  if (inputs.model !== undefined) args.push(`--model=${inputs.model}`);
  if (inputs.maxTurns !== undefined) args.push(`--max-turns=${inputs.maxTurns}`);
  if (inputs.maxBudgetUsd !== undefined) args.push(`--max-budget-usd=${inputs.maxBudgetUsd}`);
  for (const rules of inputs.allowedTools) args.push(`--allowedTools=${rules}`);
  for (const rules of inputs.disallowedTools) args.push(`--disallowedTools=${rules}`);
  if (inputs.settings !== undefined) args.push(`--settings=${inputs.settings}`);
  for (const config of inputs.mcpConfigs) args.push(`--mcp-config=${config}`);
  args.push("--");
  if (inputs.prompt !== undefined) args.push(inputs.prompt);
  return args;
}

/** The prompt file's text for clew's stdin; undefined: stdin is closed empty. */
export function promptStdin(inputs: ActionInputs): Buffer | undefined {
  return inputs.promptFile === undefined ? undefined : readFileSync(inputs.promptFile);
}
