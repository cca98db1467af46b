/**
 * Keys a layer is not allowed to set, removed before merging, each removal reported with the
 * file and key:
 * - spec §2.5: a repository (shared or local project file) cannot start clew in bypass or auto
 *   mode (clew adds `bypassPermissions` to Claude Code's list), skip the dangerous-mode prompts,
 *   configure auto mode, loosen the sandbox or force the gateway login;
 * - managed-only keys mean nothing outside managed settings;
 * - spec §2.6: an untrusted shared project file cannot grant permissions or directories;
 * - spec §2.2: managed `allowManagedPermissionRulesOnly` silences every other layer's rules.
 */
import type { ParsedJson } from "./json-source.ts";
import { formatKeyPath, getAt, isPlainObject, type PathSegment, removeAt } from "./key-path.ts";
import type { LayerSpec } from "./sources.ts";
import type { InactiveRule, SettingsProblem, SettingsRule } from "./types.ts";

export interface Layer {
  spec: LayerSpec;
  data: Record<string, unknown>;
  json: ParsedJson | undefined;
}

export function ruleSource(spec: LayerSpec): SettingsRule["source"] {
  return Object.freeze({ scope: spec.scope, ...(spec.file ? { file: spec.file } : {}), root: spec.root });
}

/** The rules of `kind` a layer lists, recorded as present but not in force. */
export function inactiveRulesOf(spec: LayerSpec, kind: SettingsRule["kind"], list: unknown, why: string, fix: string): InactiveRule[] {
  if (!Array.isArray(list)) return [];
  const source = ruleSource(spec);
  return [...new Set(list)].filter((text): text is string => typeof text === "string").map((text) => Object.freeze({ text, kind, source, why, fix }));
}

/** Keys only managed settings may set (settings reference, "managed-only"; §3 scope `M`). */
export const MANAGED_ONLY_KEYS: readonly string[] = [
  "allowManagedPermissionRulesOnly", "allowManagedHooksOnly", "allowManagedMcpServersOnly", "strictKnownMarketplaces",
  "allowedMarketplaces", "blockedMarketplaces", "requiredMinimumVersion", "requiredMaximumVersion", "claudeMd",
  "policyHelper", "forceRemoteSettingsRefresh", "disableCommandPluginSources", "pluginSuggestionMarketplaces",
  "pluginTrustMessage", "strictPluginOnlyCustomization", "parentSettingsBehavior", "disableSideloadFlags",
];

interface RepoRule {
  path: PathSegment[];
  /** Only these values are refused; undefined refuses any value. */
  values?: readonly unknown[];
  scopes: readonly ("project" | "local")[];
  why: string;
}

const BOTH = ["project", "local"] as const;
const MODE_WHY = "a repository cannot choose this starting mode; use --permission-mode or your user settings";
const USER_WHY = "a repository cannot set this; put it in your user settings";

const REPO_RULES: readonly RepoRule[] = [
  { path: ["permissions", "defaultMode"], values: ["bypassPermissions", "auto"], scopes: BOTH, why: MODE_WHY },
  { path: ["skipDangerousModePermissionPrompt"], scopes: BOTH, why: USER_WHY },
  { path: ["skipAutoPermissionPrompt"], scopes: BOTH, why: USER_WHY },
  { path: ["autoMode"], scopes: BOTH, why: USER_WHY },
  { path: ["useAutoModeDuringPlan"], values: [false], scopes: ["project"], why: USER_WHY },
  { path: ["sandbox", "network", "strictAllowlist"], scopes: BOTH, why: USER_WHY },
  { path: ["sandbox", "allowAppleEvents"], scopes: BOTH, why: USER_WHY },
  { path: ["sandbox", "filesystem", "disabled"], scopes: BOTH, why: USER_WHY },
  { path: ["forceLoginMethod"], values: ["gateway"], scopes: BOTH, why: "only machine-managed settings can force gateway login" },
];

const SCOPE_WORDS: Record<string, string> = {
  project: "shared project settings",
  local: "local project settings",
  user: "user settings",
  cli: "command-line settings",
};

function notice(layer: Layer, path: PathSegment[], message: string, severity: SettingsProblem["severity"] = "notice"): SettingsProblem {
  const position = layer.json?.locate(path);
  return { file: layer.spec.file ?? layer.spec.flag ?? "", ...(position ?? {}), keyPath: formatKeyPath(path), message, severity };
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? ` "${value}"` : typeof value === "boolean" ? ` ${value}` : "";
}

export function applyRepositoryRestrictions(layer: Layer, problems: SettingsProblem[]): void {
  const scope = layer.spec.scope;
  if (scope !== "project" && scope !== "local") return;
  for (const rule of REPO_RULES) {
    if (!rule.scopes.includes(scope)) continue;
    const value = getAt(layer.data, rule.path);
    if (value === undefined || (rule.values && !rule.values.includes(value))) continue;
    removeAt(layer.data, rule.path);
    const keyPath = formatKeyPath(rule.path);
    problems.push(notice(layer, rule.path, `${keyPath}${describeValue(value)} is ignored in ${SCOPE_WORDS[scope]}: ${rule.why}`));
  }
}

export function dropManagedOnlyKeys(layer: Layer, problems: SettingsProblem[]): void {
  if (layer.spec.scope === "managed") return;
  for (const key of MANAGED_ONLY_KEYS) {
    if (!Object.hasOwn(layer.data, key)) continue;
    problems.push(notice(layer, [key], `${key} is ignored in ${SCOPE_WORDS[layer.spec.scope]}: only managed settings can set it`));
    delete layer.data[key];
  }
}

/** Keys of the shared project file that wait for workspace trust (spec §2.6). */
const TRUST_GATED: readonly PathSegment[][] = [
  ["permissions", "allow"],
  ["permissions", "additionalDirectories"],
  ["extraKnownMarketplaces"],
  ["enableAllProjectMcpServers"],
  // An approval the repository gives itself; `disabledMcpjsonServers` is not here: a rejection always counts.
  ["enabledMcpjsonServers"],
];

export function applyUntrustedWorkspace(layer: Layer, startDir: string, problems: SettingsProblem[], inactive: InactiveRule[]): void {
  if (layer.spec.scope !== "project") return;
  const held = TRUST_GATED.filter((path) => getAt(layer.data, path) !== undefined);
  if (held.length === 0) return;
  const fix = `run \`clew trust ${JSON.stringify(startDir)}\` once you trust this folder`;
  inactive.push(...inactiveRulesOf(layer.spec, "allow", getAt(layer.data, ["permissions", "allow"]), "this folder is not trusted, and the shared project settings of an untrusted folder cannot allow anything", fix));
  for (const path of held) removeAt(layer.data, path);
  const keys = held.map(formatKeyPath).join(", ");
  problems.push(
    notice(
      layer,
      held[0] ?? [],
      `this workspace has not been trusted, so ${keys} from this file ${held.length === 1 ? "is" : "are"} not applied ` +
        `(its deny and ask rules are). To trust it, run: clew trust ${JSON.stringify(startDir)}`,
      "warning",
    ),
  );
}

/** The managed value of a top-level key: the strongest managed layer that sets it. */
function managedValue(layers: readonly Layer[], key: string): unknown {
  return layers.find((layer) => layer.spec.scope === "managed" && Object.hasOwn(layer.data, key))?.data[key];
}

export function applyManagedRulesOnly(layers: readonly Layer[], problems: SettingsProblem[], inactive: InactiveRule[]): void {
  if (managedValue(layers, "allowManagedPermissionRulesOnly") !== true) return;
  for (const layer of layers) {
    if (layer.spec.scope === "managed" || !isPlainObject(layer.data.permissions)) continue;
    const permissions = layer.data.permissions;
    const kinds = (["allow", "ask", "deny"] as const).filter((kind) => permissions[kind] !== undefined);
    if (kinds.length === 0) continue;
    for (const kind of kinds) {
      const why = "managed settings apply only their own permission rules (allowManagedPermissionRulesOnly)";
      inactive.push(...inactiveRulesOf(layer.spec, kind, permissions[kind], why, "ask your administrator to add the rule to managed settings"));
      delete permissions[kind];
    }
    problems.push(
      notice(layer, ["permissions"], `permissions.${kinds.join("/")} rules are ignored: managed settings allow only managed permission rules (allowManagedPermissionRulesOnly)`),
    );
  }
}
