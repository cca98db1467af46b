/**
 * How clew runs the user's own `git`: with the user's whole environment, so their credential
 * helpers, ssh-agent (`SSH_AUTH_SOCK`), `GIT_SSH_COMMAND`, `GIT_ASKPASS`, proxies and
 * `GIT_CONFIG_*` settings all apply exactly as they do in their shell.
 *
 * simple-git strips every `GIT_*` (and `EDITOR`/`PAGER`-style) variable it inherits and refuses
 * some of them when passed explicitly, to protect programs that feed untrusted input to git. The
 * environment here is the user's own, so each guarded variable present is allowed by name and
 * exactly the "unsafe" category it belongs to is enabled — nothing for variables that are absent.
 * Arguments are still checked: clew builds them itself and validates URLs and refs first
 * (see validate.ts), which is what the argument guard is for.
 */
import type { SimpleGitOptions } from "simple-git";

type UnsafeFlags = NonNullable<SimpleGitOptions["unsafe"]>;
type UnsafeCategory = keyof UnsafeFlags;

/** simple-git's table of variables that need an unsafe category (lower-cased names). */
const CATEGORY_OF_VARIABLE: Record<string, UnsafeCategory> = {
  editor: "allowUnsafeEditor",
  visual: "allowUnsafeEditor",
  git_editor: "allowUnsafeEditor",
  git_sequence_editor: "allowUnsafeEditor",
  git_askpass: "allowUnsafeAskPass",
  ssh_askpass: "allowUnsafeAskPass",
  git_config: "allowUnsafeConfigPaths",
  git_config_global: "allowUnsafeConfigPaths",
  git_config_system: "allowUnsafeConfigPaths",
  prefix: "allowUnsafeConfigPaths",
  git_config_count: "allowUnsafeConfigEnvCount",
  git_config_parameters: "allowUnsafeConfigEnvCount",
  git_exec_path: "allowUnsafeExec",
  git_external_diff: "allowUnsafeDiffExternal",
  git_pager: "allowUnsafePager",
  pager: "allowUnsafePager",
  git_proxy_command: "allowUnsafeGitProxy",
  git_template_dir: "allowUnsafeTemplateDir",
  git_ssh: "allowUnsafeSshCommand",
  git_ssh_command: "allowUnsafeSshCommand",
};

/**
 * Configuration keys set through `GIT_CONFIG_KEY_<n>` are the user's own settings too; each is
 * matched to the category simple-git would demand for it.
 */
const CATEGORY_OF_CONFIG_KEY: Array<[RegExp, UnsafeCategory]> = [
  [/^alias\./, "allowUnsafeAlias"],
  [/^core\.askpass$/, "allowUnsafeAskPass"],
  [/^core\.editor$|^sequence\.editor$/, "allowUnsafeEditor"],
  [/^core\.fsmonitor$/, "allowUnsafeFsMonitor"],
  [/^core\.gitproxy$/, "allowUnsafeGitProxy"],
  [/^core\.hookspath$/, "allowUnsafeHooksPath"],
  [/^core\.pager$|^pager\./, "allowUnsafePager"],
  [/^core\.sshcommand$/, "allowUnsafeSshCommand"],
  [/^credential\..*helper$/, "allowUnsafeCredentialHelper"],
  [/^diff\..*(command|external)$|^difftool\..*cmd$/, "allowUnsafeDiffExternal"],
  [/^diff\..*textconv$/, "allowUnsafeDiffTextConv"],
  [/^filter\./, "allowUnsafeFilter"],
  [/^gpg\..*program$/, "allowUnsafeGpgProgram"],
  [/^include\.path$|^includeif\./, "allowUnsafeInclude"],
  [/^init\.templatedir$/, "allowUnsafeTemplateDir"],
  [/^merge\..*driver$|^mergetool\./, "allowUnsafeMergeDriver"],
  [/^protocol\..*allow$/, "allowUnsafeProtocolOverride"],
  [/^remote\..*(receivepack|uploadpack)$|^uploadpack\.packobjectshook$/, "allowUnsafePack"],
  [/^submodule\..*update$/, "allowUnsafeSubmodule"],
  [/^tar\..*command$|^trailer\..*(cmd|command)$/, "allowUnsafeCommandBinaries"],
  [/^url\..*insteadof$/, "allowUnsafeUrlRewrite"],
];

export interface GitEnvironment {
  /** Passed whole to every git child process (simple-git's `.env()` replaces, never merges). */
  env: Record<string, string>;
  allowEnvironment: string[];
  unsafe: UnsafeFlags;
}

/**
 * `extraConfig` is configuration for this one command only (the GitHub token header), passed
 * through `GIT_CONFIG_COUNT` after the user's own entries: in memory, never on the command line
 * (where `ps` would show it) and never in a file.
 */
export function gitEnvironment(userEnv: Record<string, string>, extraConfig: Array<[string, string]> = [], nonInteractive = false): GitEnvironment {
  const env: Record<string, string> = { ...userEnv };
  if (nonInteractive && env.GIT_TERMINAL_PROMPT === undefined) env.GIT_TERMINAL_PROMPT = "0";
  if (extraConfig.length > 0) {
    let count = Number.parseInt(env.GIT_CONFIG_COUNT ?? "0", 10);
    if (!Number.isFinite(count) || count < 0) count = 0;
    for (const [key, value] of extraConfig) {
      env[`GIT_CONFIG_KEY_${count}`] = key;
      env[`GIT_CONFIG_VALUE_${count}`] = value;
      count += 1;
    }
    env.GIT_CONFIG_COUNT = String(count);
  }
  const unsafe: UnsafeFlags = {};
  for (const name of Object.keys(env)) {
    const category = CATEGORY_OF_VARIABLE[name.toLowerCase()];
    if (category) unsafe[category] = true;
  }
  for (const [name, value] of Object.entries(env)) {
    if (!/^GIT_CONFIG_KEY_\d+$/i.test(name)) continue;
    const key = value.toLowerCase().trim();
    for (const [pattern, category] of CATEGORY_OF_CONFIG_KEY) if (pattern.test(key)) unsafe[category] = true;
  }
  return { env, allowEnvironment: Object.keys(env), unsafe };
}
