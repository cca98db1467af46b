/**
 * Loads every settings layer and produces the frozen, merged settings, the origin of each leaf,
 * the permission rules with their sources, and the problems found on the way.
 *
 * A file that cannot be parsed stops the run (`SettingsError`), because going on without it could
 * silently drop its deny rules. Modes that must keep running pass `keepDenyOnError`: the broken
 * file then contributes only the deny/ask rules that can still be read from it, never its allow
 * rules or anything else, and the failure is reported as an `error` problem.
 */
import { resolve } from "node:path";
import type { ParsedJson } from "./json-source.ts";
import { parseStrictJson, recoverRestrictiveRules } from "./json-source.ts";
import { deepFreeze, isPlainObject } from "./key-path.ts";
import { applySecurityExceptions, mergeLayers, type MergeInput } from "./merge.ts";
import { displayPath, SettingsError } from "./problems.ts";
import {
  applyManagedRulesOnly,
  applyRepositoryRestrictions,
  applyUntrustedWorkspace,
  dropManagedOnlyKeys,
  inactiveRulesOf,
  ruleSource,
  type Layer,
} from "./restrictions.ts";
import { type LayerSpec, readSettingsFile, settingsLayers, type SourceOptions } from "./sources.ts";
import { defaultSettings } from "./defaults.ts";
import { isTrusted } from "./trust.ts";
import type { Frozen, InactiveRule, LoadedSettings, Settings, SettingsOrigin, SettingsProblem, SettingsRule } from "./types.ts";
import { validateSettingsFile } from "./validate.ts";

export interface LoadSettingsOptions extends SourceOptions {
  /** For `~/…` in messages and to refuse trusting the home directory. */
  homeDir?: string;
  /** Keep running on a file that fails to parse, with only its recoverable deny/ask rules. */
  keepDenyOnError?: boolean;
  /** Overrides the trust store (e.g. right after the user accepted a trust prompt). */
  trusted?: boolean;
}

type Parsed = { kind: "missing" } | { kind: "json"; json: ParsedJson } | { kind: "broken"; problem: SettingsProblem; text: string };

function labelOf(spec: LayerSpec): string {
  return spec.file ?? spec.flag ?? spec.scope;
}

function parseLayer(spec: LayerSpec): Parsed {
  const label = labelOf(spec);
  const broken = (message: string, text = "", position: Partial<SettingsProblem> = {}): Parsed => ({
    kind: "broken",
    text,
    problem: { file: label, ...position, message, severity: "error" },
  });
  if (isPlainObject(spec.inline)) return { kind: "json", json: { value: spec.inline, locate: () => undefined } };
  let text: string;
  if (typeof spec.inline === "string") text = spec.inline;
  else if (spec.file) {
    const read = readSettingsFile(spec.file);
    if (read.kind === "missing") return spec.required ? broken("file not found (--settings)") : { kind: "missing" };
    if (read.kind === "error") return broken(`settings file ${read.message}`);
    text = read.text;
  } else return { kind: "missing" };
  const outcome = parseStrictJson(text);
  if (!outcome.ok) {
    const { line, column, keyPath, message } = outcome.error;
    const where = keyPath ? ` (in ${keyPath})` : "";
    return broken(`invalid JSON${where}: ${message}`, text, { line, column, ...(keyPath ? { keyPath } : {}) });
  }
  if (!isPlainObject(outcome.json.value)) {
    return broken("a settings file must contain a JSON object ({ … })", text, { line: 1, column: 1 });
  }
  return { kind: "json", json: outcome.json };
}

/** What survives of a broken file under `keepDenyOnError`: its readable deny and ask rules. */
function recoveredLayer(spec: LayerSpec, parsed: Extract<Parsed, { kind: "broken" }>, problems: SettingsProblem[], inactive: InactiveRule[]): Layer {
  const { deny, ask, allow } = recoverRestrictiveRules(parsed.text);
  const { line, column, message } = parsed.problem;
  const at = line === undefined ? "" : ` at line ${line}${column === undefined ? "" : `, column ${column}`}`;
  inactive.push(...inactiveRulesOf(spec, "allow", allow, `its settings file does not parse${at} (${message}), and only deny and ask rules are kept from a broken file`, `fix ${labelOf(spec)}`));
  const kept = `kept ${deny.length} deny and ${ask.length} ask rule${deny.length + ask.length === 1 ? "" : "s"} from it; everything else in it is ignored until it is fixed`;
  problems.push({ ...parsed.problem, message: `${parsed.problem.message}; ${kept}` });
  const permissions: Record<string, unknown> = {};
  if (deny.length > 0) permissions.deny = deny;
  if (ask.length > 0) permissions.ask = ask;
  return { spec, data: Object.keys(permissions).length > 0 ? { permissions } : {}, json: undefined };
}

export function originOf(spec: LayerSpec): SettingsOrigin {
  return { scope: spec.scope, ...(spec.file ? { file: spec.file } : {}), ...(spec.flag ? { flag: spec.flag } : {}) };
}

function rulesOf(layers: readonly Layer[]): SettingsRule[] {
  const rules: SettingsRule[] = [];
  for (const { spec, data } of layers) {
    if (!isPlainObject(data.permissions)) continue;
    const source = ruleSource(spec);
    for (const kind of ["deny", "ask", "allow"] as const) {
      const list = data.permissions[kind];
      if (!Array.isArray(list)) continue;
      for (const text of new Set(list)) if (typeof text === "string") rules.push(Object.freeze({ text, kind, source }));
    }
  }
  return rules;
}

export function loadSettings(given: LoadSettingsOptions): LoadedSettings {
  const options = { ...given, startDir: resolve(given.startDir), configDir: resolve(given.configDir) };
  const specs = settingsLayers(options);
  const problems: SettingsProblem[] = [];
  const inactive: InactiveRule[] = [];
  const layers: Layer[] = [];
  const files: string[] = [];
  for (const spec of specs) {
    if (spec.file) files.push(spec.file);
    const parsed = parseLayer(spec);
    if (parsed.kind === "missing") continue;
    if (parsed.kind === "broken") {
      if (!options.keepDenyOnError) throw new SettingsError(parsed.problem, options.homeDir);
      layers.push(recoveredLayer(spec, parsed, problems, inactive));
      continue;
    }
    // A file's text parsed just now is the loader's own to repair; an object passed inline is not.
    const validated = validateSettingsFile(parsed.json, labelOf(spec), { owned: !isPlainObject(spec.inline) });
    problems.push(...validated.problems);
    layers.push({ spec, data: validated.data, json: parsed.json });
  }
  const trusted = options.trusted ?? isTrusted(options.configDir, options.startDir, options.homeDir);
  for (const layer of layers) {
    applyRepositoryRestrictions(layer, problems);
    dropManagedOnlyKeys(layer, problems);
    if (!trusted) applyUntrustedWorkspace(layer, options.startDir, problems, inactive);
  }
  applyManagedRulesOnly(layers, problems, inactive);
  const inputs: MergeInput[] = layers.map((layer) => ({ data: layer.data, origin: originOf(layer.spec) }));
  inputs.push({ data: defaultSettings(), origin: { scope: "default" } });
  const merged = mergeLayers(inputs);
  applySecurityExceptions(merged, inputs);
  return {
    settings: deepFreeze(merged.value) as Frozen<Settings>,
    origins: merged.origins.record(),
    rules: rulesOf(layers),
    inactiveRules: Object.freeze(inactive),
    problems: Object.freeze(problems.map((problem) => Object.freeze(problem))),
    files: Object.freeze(files),
    trusted,
  };
}

/** For messages outside this module: the file of an origin as a person would type it. */
export function describeOrigin(origin: SettingsOrigin, homeDir?: string): string {
  if (origin.scope === "default") return "(default)";
  const where = origin.file ? displayPath(origin.file, homeDir) : (origin.flag ?? "");
  return `${where} (${origin.scope})`;
}
