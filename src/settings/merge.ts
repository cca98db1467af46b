/**
 * Merges layers per spec §2.2, strongest first, and records where each leaf came from:
 * - scalars: the strongest layer that sets the key;
 * - objects (`env`, `permissions`, `sandbox`, …): merged key by key with the same rules;
 * - arrays: concatenated strongest layer first and de-duplicated (a duplicate keeps its first,
 *   strongest occurrence, so `clew config --origins` names the layer that enforces it);
 * - exceptions: `fallbackModel` whole from the strongest layer; a managed `availableModels` is
 *   used as-is; `extraKnownMarketplaces` entries replaced whole by name; `hooks` matcher groups
 *   concatenated, an identical handler (same event and matcher) kept once, in its strongest layer;
 * - when two layers disagree on a key's shape (array vs string) the strongest one decides.
 */
import { appendKeySegment, canonical, formatKeyPath, isPlainObject, type PathSegment } from "./key-path.ts";
import { OriginsBuilder } from "./origins.ts";
import type { SettingsOrigin, SettingsScope } from "./types.ts";

export interface MergeInput {
  data: Record<string, unknown>;
  origin: SettingsOrigin;
}

export interface MergeResult {
  value: Record<string, unknown>;
  /** Key path → origin, in merge order. */
  origins: OriginsBuilder;
}

interface Contribution {
  value: unknown;
  origin: SettingsOrigin;
}

type Shape = "array" | "object" | "scalar";

function isEmpty(object: Record<string, unknown>): boolean {
  for (const _ in object) return false;
  return true;
}

function onlyScalars(object: Record<string, unknown>): boolean {
  for (const key in object) {
    const child = object[key];
    if (typeof child === "object" && child !== null) return false;
  }
  return true;
}

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return "array";
  return isPlainObject(value) ? "object" : "scalar";
}

class Merger {
  readonly origins = new OriginsBuilder();

  node(path: PathSegment[], contributions: Contribution[]): unknown {
    const top = path.length === 1 ? path[0] : undefined;
    if (top === "fallbackModel") return this.whole(path, contributions[0] as Contribution);
    if (top === "availableModels") {
      const managed = contributions.filter((c) => c.origin.scope === "managed");
      return this.generic(path, managed.length > 0 ? managed : contributions);
    }
    if (top === "extraKnownMarketplaces") return this.entriesWhole(path, contributions);
    if (top === "hooks") return this.hooks(path, contributions);
    return this.generic(path, contributions);
  }

  private record(path: readonly PathSegment[], origin: SettingsOrigin): void {
    this.origins.set(formatKeyPath(path), origin);
  }

  /** An empty container still says something when a file wrote it, not when a default did. */
  private recordEmpty(path: readonly PathSegment[], origin: SettingsOrigin): void {
    if (origin.scope !== "default") this.record(path, origin);
  }

  private generic(path: PathSegment[], contributions: Contribution[]): unknown {
    const first = contributions[0] as Contribution;
    const shape = shapeOf(first.value);
    const run: Contribution[] = [];
    for (const contribution of contributions) {
      if (shapeOf(contribution.value) !== shape) break;
      run.push(contribution);
    }
    if (shape === "scalar") {
      this.record(path, first.origin);
      return first.value;
    }
    if (shape === "array") return this.concat(path, run);
    const out: Record<string, unknown> = {};
    const filled = run.filter((contribution) => !isEmpty(contribution.value as Record<string, unknown>));
    if (filled.length === 1) {
      // One layer sets keys here (600 `enabledPlugins` in one file; the defaults' `{}` adds none): no per-key search.
      const { value, origin } = filled[0] as Contribution;
      const object = value as Record<string, unknown>;
      const prefix = formatKeyPath(path);
      // Only plain values (`enabledPlugins`, `env`): the layer's own object is the merged one (layers
      // are the loader's copies), and its leaves' origins are one block (origins.ts).
      if (path.length > 0 && onlyScalars(object)) {
        this.origins.block(prefix, object, origin);
        return object;
      }
      for (const [key, child] of Object.entries(object)) {
        if (shapeOf(child) === "scalar" && path.length > 0) {
          out[key] = child;
          this.origins.set(appendKeySegment(prefix, key), origin);
        } else out[key] = this.node([...path, key], [{ value: child, origin }]);
      }
      return out;
    }
    for (const contribution of run) {
      for (const key of Object.keys(contribution.value as Record<string, unknown>)) {
        if (Object.hasOwn(out, key)) continue;
        const forKey = run
          .filter((c) => Object.hasOwn(c.value as Record<string, unknown>, key))
          .map((c) => ({ value: (c.value as Record<string, unknown>)[key], origin: c.origin }));
        out[key] = this.node([...path, key], forKey);
      }
    }
    if (Object.keys(out).length === 0) this.recordEmpty(path, first.origin);
    return out;
  }

  private concat(path: PathSegment[], run: Contribution[]): unknown[] {
    const out: unknown[] = [];
    const seen = new Set<string>();
    for (const contribution of run) {
      for (const element of contribution.value as unknown[]) {
        const key = canonical(element);
        if (seen.has(key)) continue;
        seen.add(key);
        this.record([...path, out.length], contribution.origin);
        out.push(element);
      }
    }
    if (out.length === 0) this.recordEmpty(path, (run[0] as Contribution).origin);
    return out;
  }

  /** A value taken whole from one layer: origins for each of its leaves. */
  private whole(path: PathSegment[], contribution: Contribution): unknown {
    this.leaves(path, contribution.value, contribution.origin);
    return contribution.value;
  }

  private leaves(path: PathSegment[], value: unknown, origin: SettingsOrigin): void {
    if (Array.isArray(value)) {
      value.forEach((_, index) => this.record([...path, index], origin));
      if (value.length === 0) this.recordEmpty(path, origin);
    } else if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) this.leaves([...path, key], child, origin);
      if (Object.keys(value).length === 0) this.recordEmpty(path, origin);
    } else this.record(path, origin);
  }

  private objects(contributions: Contribution[]): { value: Record<string, unknown>; origin: SettingsOrigin }[] {
    return contributions.flatMap((c) => (isPlainObject(c.value) ? [{ value: c.value, origin: c.origin }] : []));
  }

  private entriesWhole(path: PathSegment[], contributions: Contribution[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const { value, origin } of this.objects(contributions)) {
      for (const [name, entry] of Object.entries(value)) {
        if (!Object.hasOwn(out, name)) out[name] = this.whole([...path, name], { value: entry, origin });
      }
    }
    return out;
  }

  private hooks(path: PathSegment[], contributions: Contribution[]): Record<string, unknown> {
    const out: Record<string, unknown[]> = {};
    const seen = new Set<string>();
    for (const { value, origin } of this.objects(contributions)) {
      for (const [event, groups] of Object.entries(value)) {
        if (!Array.isArray(groups)) continue;
        const list = (out[event] ??= []);
        for (const group of groups) {
          if (!isPlainObject(group) || !Array.isArray(group.hooks)) continue;
          const matcher = typeof group.matcher === "string" ? group.matcher : "";
          const handlers = group.hooks.filter((handler) => {
            const key = `${event}\u0000${matcher}\u0000${canonical(handler)}`;
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          });
          if (handlers.length === 0) continue;
          this.record([...path, event, list.length], origin);
          list.push({ ...group, hooks: handlers });
        }
      }
    }
    return out;
  }
}

/** `inputs` strongest first; the built-in defaults are expected last. */
export function mergeLayers(inputs: readonly MergeInput[]): MergeResult {
  const merger = new Merger();
  const contributions = inputs.map((input) => ({ value: input.data, origin: input.origin }));
  const value = merger.node([], contributions) as Record<string, unknown>;
  return { value, origins: merger.origins };
}

interface SecurityException {
  key: string;
  value: boolean;
  scopes: readonly SettingsScope[];
}

/** Spec §2.4: the stricter value wins over a looser one from a stronger scope. */
const SECURITY_EXCEPTIONS: readonly SecurityException[] = [
  { key: "disableClaudeAiConnectors", value: true, scopes: ["managed", "cli", "local", "project", "user"] },
  { key: "isolatePeerMachines", value: true, scopes: ["managed", "cli", "local", "project", "user"] },
  { key: "remoteControlAtStartup", value: false, scopes: ["local", "project"] },
  { key: "useAutoModeDuringPlan", value: false, scopes: ["managed", "cli", "local", "user"] },
  { key: "syncClaudeAiSkills", value: false, scopes: ["managed", "cli", "local", "user"] },
];

export function applySecurityExceptions(result: MergeResult, inputs: readonly MergeInput[]): void {
  for (const exception of SECURITY_EXCEPTIONS) {
    if (result.value[exception.key] === exception.value) continue;
    const strict = inputs.find((input) => exception.scopes.includes(input.origin.scope) && input.data[exception.key] === exception.value);
    if (!strict) continue;
    result.value[exception.key] = exception.value;
    result.origins.set(exception.key, strict.origin);
  }
}
