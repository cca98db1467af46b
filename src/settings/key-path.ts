/** Key paths (`permissions.allow[2]`, `enabledPlugins["a@b"]`) and small JSON-value helpers. */

export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

export function formatKeyPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const segment of path) out = appendKeySegment(out, segment);
  return out;
}

/** `formatKeyPath([...path, segment])` given `formatKeyPath(path)`. */
export function appendKeySegment(formatted: string, segment: PathSegment): string {
  if (typeof segment === "number") return `${formatted}[${segment}]`;
  if (PLAIN_KEY.test(segment)) return formatted === "" ? segment : `${formatted}.${segment}`;
  return `${formatted}[${JSON.stringify(segment)}]`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function getAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof segment === "number") {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (!isPlainObject(current) || !Object.hasOwn(current, segment)) return undefined;
      current = current[segment];
    }
  }
  return current;
}

/** Removes the value at `path` (an array element is spliced out). False if nothing was there. */
export function removeAt(root: unknown, path: readonly PathSegment[]): boolean {
  if (path.length === 0) return false;
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1] as PathSegment;
  if (typeof last === "number" && Array.isArray(parent) && last < parent.length) {
    parent.splice(last, 1);
    return true;
  }
  if (typeof last === "string" && isPlainObject(parent) && Object.hasOwn(parent, last)) {
    delete parent[last];
    return true;
  }
  return false;
}

/** A JSON type name for messages: `string`, `number`, `array`, `object`, `null`, … */
export function jsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value === undefined) return "nothing";
  return typeof value;
}

/** A stable serialisation (sorted object keys), used to de-duplicate structurally equal values. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function deepClone<T>(value: T): T {
  return structuredClone(value);
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Plain values are checked here, not in a call each (600 `enabledPlugins` are 600 booleans).
    for (const child of Object.values(value)) if (typeof child === "object" && child !== null) deepFreeze(child);
  }
  return value;
}
