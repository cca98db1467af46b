/**
 * The origins record the merge builds: each leaf's key path → the layer that set it. Most leaves
 * are recorded as the merge meets them. An object one layer alone sets, whose values are all plain
 * (600 `enabledPlugins`), is recorded as one block instead: its leaves' key paths are formatted
 * only when the record is listed (`clew config --origins`, `/config origins`). Formatting 600 of
 * them cost every start ~0.5 ms, and a start only ever asks for a few keys by name.
 */
import { appendKeySegment } from "./key-path.ts";
import type { SettingsOrigin } from "./types.ts";

interface LeafBlock {
  /** The object's own key path. */
  prefix: string;
  object: Readonly<Record<string, unknown>>;
  origin: SettingsOrigin;
  /** How many single leaves were recorded before it: where its leaves go in the listing. */
  at: number;
}

type OriginRecord = Record<string, SettingsOrigin>;

/** A record without a prototype: a key path named `__proto__` or `constructor` is a key like any other. */
const emptyRecord = (): OriginRecord => Object.create(null) as OriginRecord;

export class OriginsBuilder {
  private readonly single = emptyRecord();
  private count = 0;
  private readonly blocks: LeafBlock[] = [];

  set(path: string, origin: SettingsOrigin): void {
    if (!(path in this.single)) this.count += 1;
    this.single[path] = origin;
  }

  /** Every leaf of `object` (all plain values) came from `origin`. */
  block(prefix: string, object: Readonly<Record<string, unknown>>, origin: SettingsOrigin): void {
    this.blocks.push({ prefix, object, origin, at: this.count });
  }

  get(path: string): SettingsOrigin | undefined {
    return path in this.single ? this.single[path] : this.blocks.find((block) => inBlock(block, path))?.origin;
  }

  /** Every leaf in merge order (a block's leaves where the block was met). */
  entries(): Array<[string, SettingsOrigin]> {
    const out: Array<[string, SettingsOrigin]> = [];
    let next = 0;
    const blocksUpTo = (count: number): void => {
      for (; next < this.blocks.length && (this.blocks[next] as LeafBlock).at <= count; next++) {
        const { prefix, object, origin } = this.blocks[next] as LeafBlock;
        for (const key in object) out.push([appendKeySegment(prefix, key), origin]);
      }
    };
    let index = 0;
    for (const path in this.single) {
      blocksUpTo(index);
      out.push([path, this.single[path] as SettingsOrigin]);
      index += 1;
    }
    blocksUpTo(Infinity);
    return out;
  }

  /** The read-only record: a plain frozen object, or one whose blocks' leaves are listed when it is first enumerated. */
  record(): Readonly<OriginRecord> {
    if (this.blocks.length === 0) return Object.freeze(this.single);
    let listed: OriginRecord | undefined;
    const list = (): OriginRecord => {
      if (listed) return listed;
      listed = emptyRecord();
      for (const [path, origin] of this.entries()) listed[path] = origin;
      return listed;
    };
    const found = (key: string | symbol): SettingsOrigin | undefined => (typeof key !== "string" ? undefined : listed ? listed[key] : this.get(key));
    const refuse = (): boolean => false;
    return new Proxy(emptyRecord(), {
      get: (_, key) => found(key),
      has: (_, key) => found(key) !== undefined,
      ownKeys: () => Object.keys(list()),
      getOwnPropertyDescriptor: (_, key) => {
        const value = found(key);
        // Configurable, as the (empty, extensible) target has no such property; read-only all the same.
        return value === undefined ? undefined : { value, writable: false, enumerable: true, configurable: true };
      },
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
      preventExtensions: refuse,
    });
  }
}

/** Whether `path` names a leaf of the block: `prefix.key` or `prefix["key"]`, as appendKeySegment writes it. */
function inBlock({ prefix, object }: LeafBlock, path: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const rest = path.slice(prefix.length);
  let key: unknown;
  if (rest.startsWith(".")) key = rest.slice(1);
  else if (rest.startsWith("[") && rest.endsWith("]")) {
    try {
      key = JSON.parse(rest.slice(1, -1));
    } catch {
      return false;
    }
  }
  return typeof key === "string" && Object.hasOwn(object, key) && appendKeySegment(prefix, key) === path;
}
