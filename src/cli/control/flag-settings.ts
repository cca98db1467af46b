/**
 * What a stream-json session adds to the command-line settings layer (the host's hook
 * callbacks, the SDK's checkpoint default), joined with the `--settings` value the host gave.
 */
import { readFileSync } from "node:fs";
import { errorMessage } from "../../util/errors.ts";

export type SettingsPatch = (settings: Record<string, unknown>) => Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `--settings` value (inline JSON or a file) as an object. */
function flagSettings(value: string | undefined): Record<string, unknown> {
  if (value === undefined) return {};
  const text = value.trimStart().startsWith("{") ? value : readFileSync(value, "utf8");
  const parsed: unknown = JSON.parse(text);
  if (!isRecord(parsed)) throw new Error("it is not a JSON object");
  return parsed;
}

/** The `--settings` value with the patches applied, as inline JSON; the value itself when there are none. */
export function patchedFlagSettings(flagValue: string | undefined, patches: readonly SettingsPatch[]): string | undefined {
  if (patches.length === 0) return flagValue;
  let base: Record<string, unknown>;
  try {
    base = flagSettings(flagValue);
  } catch (error) {
    throw new Error(`the session's own settings (the host's hook callbacks, its checkpoint choice) cannot be joined with --settings ${flagValue}: ${errorMessage(error)}`);
  }
  return JSON.stringify(patches.reduce((settings, patch) => patch(settings), base));
}

/**
 * Claude Code keeps no file checkpoints for an Agent SDK host unless it asks for them
 * (`enableFileCheckpointing`); a settings file that says otherwise still wins over this default.
 */
export function sdkCheckpointPatch(childEnv: Readonly<Record<string, string>>): SettingsPatch | undefined {
  const entrypoint = childEnv.CLAUDE_CODE_ENTRYPOINT ?? "";
  if (!entrypoint.startsWith("sdk")) return undefined;
  const asked = /^(1|true|yes|on)$/i.test(childEnv.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING ?? "");
  return asked ? undefined : (settings) => ("fileCheckpointingEnabled" in settings ? settings : { ...settings, fileCheckpointingEnabled: false });
}
