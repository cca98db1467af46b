/**
 * Imported `with { type: "macro" }` by validate.ts: at build time, the JSON Schema zod derives from
 * each typed settings key, so the shipped binary can tell a certainly valid file without zod.
 */
import { loadZod } from "../../util/lazy-schema.ts";
import { SETTINGS_KEYS, settingsKeySchema } from "./settings.ts";
import type { JsonSchema } from "./certainly-valid.ts";

export function settingsKeyJsonSchemas(): Record<string, JsonSchema> {
  const z = loadZod();
  const out: Record<string, JsonSchema> = {};
  for (const key of SETTINGS_KEYS) {
    const schema = settingsKeySchema(key);
    if (!schema) continue;
    const json = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { io: "input" }))) as Record<string, unknown>;
    delete json.$schema;
    out[key] = json;
  }
  return out;
}
