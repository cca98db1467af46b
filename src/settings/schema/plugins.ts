/** `enabledPlugins` and `extraKnownMarketplaces` (marketplaces.md §8). */
import type { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.ts";

export const marketplaceSourceSchema = lazySchema((z) => {
  const gitish = { ref: z.string().optional(), path: z.string().optional(), skipLfs: z.boolean().optional() };
  return z.discriminatedUnion("source", [
    z.looseObject({ source: z.literal("github"), repo: z.string(), ...gitish }),
    z.looseObject({ source: z.literal("git"), url: z.string(), ...gitish }),
    z.looseObject({
      source: z.literal("url"),
      url: z.string(),
      headers: z.record(z.string(), z.string()).optional(),
      headersHelper: z.string().optional(),
    }),
    z.looseObject({ source: z.literal("npm"), package: z.string() }),
    z.looseObject({ source: z.literal("file"), path: z.string() }),
    z.looseObject({ source: z.literal("directory"), path: z.string() }),
    z.looseObject({ source: z.literal("settings"), name: z.string().optional(), plugins: z.array(z.unknown()).optional() }),
  ]);
});

export const knownMarketplaceSchema = lazySchema((z) =>
  z.looseObject({
    source: marketplaceSourceSchema(),
    autoUpdate: z.boolean().optional(),
  }),
);

/** `"name@marketplace": true|false`. */
export const enabledPluginsSchema = lazySchema((z) => z.record(z.string(), z.boolean()));

export const extraKnownMarketplacesSchema = lazySchema((z) => z.record(z.string(), knownMarketplaceSchema()));

export type MarketplaceSource = z.infer<ReturnType<typeof marketplaceSourceSchema>>;
export type KnownMarketplace = z.infer<ReturnType<typeof knownMarketplaceSchema>>;
