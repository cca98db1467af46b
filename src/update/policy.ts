/**
 * What may update this clew, from the environment and the merged settings (managed settings win
 * the merge, so an organisation can force any of these): the release source, the channel, a
 * version pin, whether background checks run, and the key manifests must be signed with.
 */
import { readFileSync } from "node:fs";
import type { UpdateEnvironment } from "../settings/paths.ts";
import { DEFAULT_RELEASE_URL } from "./source.ts";

export interface UpdatePolicy {
  base: string;
  channel: "latest" | "stable";
  pin: { version: string; by: string } | undefined;
  autoUpdate: { enabled: true } | { enabled: false; by: string };
  trustedKey: { pem: string | undefined; label: string; problem?: string };
}

/** The settings keys the updater reads (settings pass unknown keys through untyped). */
export interface UpdateSettings {
  autoUpdates?: unknown;
  autoUpdatesChannel?: unknown;
  pinnedVersion?: unknown;
  env?: unknown;
}

function truthy(value: unknown): boolean {
  return typeof value === "string" && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function trustedKeyOf(env: UpdateEnvironment, embedded: string | undefined): UpdatePolicy["trustedKey"] {
  if (env.trustedKeyFile === undefined) {
    return embedded === undefined
      ? { pem: undefined, label: "none", problem: "this is a local build with no release key built in: updates are refused (set CLEW_TRUSTED_KEY to a PEM public key to trust one)" }
      : { pem: embedded, label: "the release key built into clew" };
  }
  try {
    return { pem: readFileSync(env.trustedKeyFile, "utf8"), label: `the key in ${env.trustedKeyFile} (CLEW_TRUSTED_KEY)` };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { pem: undefined, label: env.trustedKeyFile, problem: `CLEW_TRUSTED_KEY names ${env.trustedKeyFile}, which cannot be read (${reason}); point it at a PEM public key file or unset it` };
  }
}

export function updatePolicy(env: UpdateEnvironment, settings: UpdateSettings, embeddedKey: string | undefined, channelFlag?: "latest" | "stable"): UpdatePolicy {
  const settingsEnv = typeof settings.env === "object" && settings.env !== null ? (settings.env as Record<string, unknown>) : {};
  const envSwitch = ["CLEW_DISABLE_AUTOUPDATE", "DISABLE_AUTOUPDATER"].find((name) => truthy(settingsEnv[name]));
  const autoUpdate: UpdatePolicy["autoUpdate"] = env.disableAutoUpdate.disabled
    ? { enabled: false, by: `env ${env.disableAutoUpdate.by ?? ""}`.trim() }
    : settings.autoUpdates === false
      ? { enabled: false, by: "setting autoUpdates: false" }
      : envSwitch !== undefined
        ? { enabled: false, by: `settings env ${envSwitch}` }
        : { enabled: true };
  const settingsChannel = settings.autoUpdatesChannel === "stable" || settings.autoUpdatesChannel === "latest" ? settings.autoUpdatesChannel : undefined;
  const pinnedSetting = typeof settings.pinnedVersion === "string" && settings.pinnedVersion.trim() !== "" ? settings.pinnedVersion.trim() : undefined;
  const pin = env.pinVersion !== undefined ? { version: env.pinVersion, by: "CLEW_PIN_VERSION" } : pinnedSetting !== undefined ? { version: pinnedSetting, by: "setting pinnedVersion" } : undefined;
  return {
    base: env.url ?? DEFAULT_RELEASE_URL,
    channel: channelFlag ?? settingsChannel ?? "latest",
    pin,
    autoUpdate,
    trustedKey: trustedKeyOf(env, embeddedKey),
  };
}
