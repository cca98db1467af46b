/**
 * A plugin's hook configuration (plugins.md §6.4): the default `hooks/hooks.json` (always loaded),
 * then the manifest's `hooks` — more files of the same shape, or an inline event map. Naming the
 * default file again is the common "Duplicate hooks file detected" mistake: loaded once, reported.
 * Only the structure is read here; the hooks layer validates and runs handlers.
 */
import { join } from "node:path";
import { isDotRelative, isObject, type ProblemList, readJson, realPath, resolvePluginPath } from "./plugin-files.ts";

export interface HookConfig {
  file: string;
  hooks: Record<string, unknown>;
}

export interface PluginHooks {
  configs: HookConfig[];
  /** Handler objects per event, summed over every config, in first-seen order. */
  events: Record<string, number>;
}

export interface HookInput {
  root: string;
  /** The manifest's (or entry's) `hooks` values in load order, each with the file it was written in. */
  declared: ReadonlyArray<{ value: unknown; file: string; field: string }>;
  label: string;
}

/** Handler objects (`{ "type": … }`) per event of one event map. */
export function countHandlers(hooks: Record<string, unknown>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    let handlers = 0;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      handlers += group.hooks.filter((handler) => isObject(handler) && typeof handler.type === "string").length;
    }
    counts[event] = handlers;
  }
  return counts;
}

/** `fieldBase`: where the event map sits in its file (`hooks`, or `plugins[3].hooks` inline in an entry). */
function checkEventMap(hooks: Record<string, unknown>, file: string, label: string, problems: ProblemList, fieldBase = "hooks"): void {
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      problems.add("error", "hooks-malformed", file, `${label}: ${fieldBase}.${event} must be a list of {"matcher", "hooks": [...]} groups; this event's hooks are not loaded.`, `${fieldBase}.${event}`);
      continue;
    }
    groups.forEach((group, index) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        problems.add("error", "hooks-malformed", file, `${label}: ${fieldBase}.${event}[${index}] needs a "hooks" list of handlers such as {"type": "command", "command": "…"}; it is skipped.`, `${fieldBase}.${event}[${index}]`);
      }
    });
  }
}

/** A hooks file's event map: `{ "hooks": { Event: [...] } }` with optional description and other top-level keys. */
function readHooksFile(file: string, label: string, shown: string, problems: ProblemList): HookConfig | undefined {
  const read = readJson(file);
  if (read.kind === "missing") return undefined;
  if (read.kind === "invalid") {
    problems.add("error", "hooks-json-error", file, `${label} ${shown}: not valid JSON (${read.message}); the plugin loads without these hooks until the syntax is fixed.`);
    return undefined;
  }
  if (!isObject(read.value) || !isObject(read.value.hooks)) {
    problems.add("error", "hooks-malformed", file, `${label} ${shown}: no "hooks" object; write {"hooks": {"PreToolUse": [...]}} (the plugin loads without these hooks).`, "hooks");
    return undefined;
  }
  checkEventMap(read.value.hooks, file, label, problems);
  return { file, hooks: read.value.hooks };
}

export function readPluginHooks(input: HookInput, problems: ProblemList): PluginHooks {
  const configs: HookConfig[] = [];
  const loaded = new Set<string>();
  const defaultFile = join(input.root, "hooks/hooks.json");
  const first = readHooksFile(defaultFile, input.label, "hooks/hooks.json", problems);
  if (first) configs.push(first);
  loaded.add(realPath(defaultFile));

  // Each item of a list may be a path or an inline map (a list mixing both is tolerated).
  for (const { value, file, field } of input.declared.flatMap((declared) => (Array.isArray(declared.value) ? declared.value.map((value) => ({ ...declared, value })) : [declared]))) {
    if (isObject(value)) {
      // An inline event map; a single `hooks` key wrapping one is unwrapped (plugins.md §6.4).
      const map = Object.keys(value).length === 1 && isObject(value.hooks) ? value.hooks : value;
      checkEventMap(map, file, input.label, problems, field);
      configs.push({ file, hooks: map });
      continue;
    }
    const paths = typeof value === "string" ? [value] : undefined;
    if (paths === undefined) {
      problems.add("error", "manifest-invalid-field", file, `${input.label}: "hooks" must be a path, a list of paths or an inline event map; it is ignored.`, field);
      continue;
    }
    for (const written of paths) {
      const resolved = resolvePluginPath(input.root, written);
      if (!resolved.ok) {
        problems.add("error", "path-invalid", file, `${input.label}: hooks ${resolved.message}; the file is not loaded.`, field);
        continue;
      }
      if (!isDotRelative(written)) problems.add("warning", "path-not-dot-relative", file, `${input.label}: hooks path "${written}" should start with "./".`, field);
      const real = realPath(resolved.path);
      if (loaded.has(real)) {
        const which = real === realPath(defaultFile) ? "the already-loaded hooks/hooks.json" : "already loaded";
        problems.add("error", "hooks-duplicate-file", file, `${input.label}: hooks "${written}" is ${which} ("Duplicate hooks file detected"); counted once. Remove it from "hooks": the default file always loads.`, field);
        continue;
      }
      loaded.add(real);
      const config = readHooksFile(resolved.path, input.label, written, problems);
      if (config) configs.push(config);
      else if (readJson(resolved.path).kind === "missing") problems.add("error", "path-not-found", file, `${input.label}: hooks file "${written}" does not exist; create it or remove it from "hooks".`, field);
    }
  }

  const events: Record<string, number> = {};
  for (const config of configs) for (const [event, count] of Object.entries(countHandlers(config.hooks))) events[event] = (events[event] ?? 0) + count;
  return { configs, events };
}
