/** `enabledPlugins` and `extraKnownMarketplaces` (marketplaces.md §8). */
import { z } from "zod";

const gitish = { ref: z.string().optional(), path: z.string().optional(), skipLfs: z.boolean().optional() };

export const marketplaceSourceSchema = z.discriminatedUnion("source", [
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

export const knownMarketplaceSchema = z.looseObject({
  source: marketplaceSourceSchema,
  autoUpdate: z.boolean().optional(),
});

/** `"name@marketplace": true|false`. */
export const enabledPluginsSchema = z.record(z.string(), z.boolean());

export const extraKnownMarketplacesSchema = z.record(z.string(), knownMarketplaceSchema);

export type MarketplaceSource = z.infer<typeof marketplaceSourceSchema>;
export type KnownMarketplace = z.infer<typeof knownMarketplaceSchema>;
