import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import type { SessionOptions } from "./session-options.ts";

/**
 * Interactive sessions, after their first turn: marketplaces due for auto-update are refreshed
 * (failures keep the last good copy) and, at most once a day, clew checks for a new version of
 * itself; what it did is one line for the user.
 */
export async function backgroundWork(env: Environment, loaded: LoadedSettings, options: Pick<SessionOptions, "version" | "notify">): Promise<void> {
  if (existsSync(join(env.pluginsDir, "known_marketplaces.json"))) {
    const { updateMarketplacesInBackground } = await import("./plugin-marketplaces.ts");
    await updateMarketplacesInBackground(env).catch(() => undefined);
  }
  const { backgroundUpdateNotice } = await import("./self-update.ts");
  const notice = await backgroundUpdateNotice(env, loaded.settings, options.version).catch(() => undefined);
  if (notice) options.notify?.(notice);
}
