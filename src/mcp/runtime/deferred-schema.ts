/**
 * A schema of the MCP SDK's protocol types (`types.js`) built at its first use. The SDK builds
 * its ~160 top-level zod schemas (several hundred schema objects) when the module is evaluated,
 * while a client session parses with about fifty: the binary's build (scripts/mcp-sdk-plugins.ts)
 * wraps each top-level schema in this, so a schema and those it is made from are built when
 * something first reads one of its properties.
 *
 * The stand-in forwards every operation to the built schema, so zod and the SDK see the schema
 * they would have seen: its properties, prototype (`instanceof`), keys and descriptors.
 */
export function deferredSchema<Schema extends object>(build: () => Schema): Schema {
  let built: Schema | undefined;
  const schema = (): Schema => (built ??= build());
  // A property the schema has as non-configurable must also be the stand-in target's (a Proxy invariant).
  const mirror = (target: object, key: PropertyKey, descriptor: PropertyDescriptor | undefined) => {
    if (descriptor && descriptor.configurable === false && !Object.prototype.hasOwnProperty.call(target, key)) Object.defineProperty(target, key, descriptor);
    return descriptor;
  };
  return new Proxy({} as Schema, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (target, key) => mirror(target, key, Reflect.getOwnPropertyDescriptor(schema(), key)),
    defineProperty: (target, key, descriptor) => {
      const defined = Reflect.defineProperty(schema(), key, descriptor);
      if (defined) mirror(target, key, Reflect.getOwnPropertyDescriptor(schema(), key));
      return defined;
    },
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
