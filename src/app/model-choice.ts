/**
 * The session's model under `availableModels`: a model chosen by `--model`, ANTHROPIC_MODEL or the
 * `model` setting that the list does not allow stops the start with the list and the file that
 * set it; an unchosen one (a resumed session's, the default) that it does not allow gives way to
 * the list's first model.
 */
import { firstAllowedModel, modelAllowed } from "../model/allowlist.ts";
import { resolveModelId } from "../model/models.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { FatalError } from "../util/errors.ts";

export function allowedModel(chosen: string | undefined, fallback: string, loaded: LoadedSettings, pinned: Record<string, string>): string {
  const allowed = loaded.settings.availableModels;
  const model = chosen === undefined ? fallback : resolveModelId(chosen, pinned);
  if (allowed === undefined || modelAllowed(model, allowed, pinned)) return model;
  // An array's origins are kept per element: the first entry's file is the strongest layer that sets the list.
  const file = (loaded.origins.availableModels ?? loaded.origins["availableModels[0]"])?.file;
  if (chosen !== undefined) {
    throw new FatalError("usage", `error: model ${chosen} is not in availableModels${file ? ` (${file})` : ""}.`, `Allowed: ${allowed.join(", ")}. Choose one of them with --model.`);
  }
  return firstAllowedModel(allowed, pinned) ?? model;
}

/** A helper's model under the same list: one it does not allow runs on the parent's model. */
export function helperModel(name: string, parent: () => string, loaded: LoadedSettings, pinned: Record<string, string>): string {
  const model = resolveModelId(name, pinned);
  return modelAllowed(model, loaded.settings.availableModels, pinned) ? model : parent();
}

/**
 * Fallback models the list allows, at most three distinct ones besides the main model
 * (`--fallback-model a,b` outranks the setting); one the list leaves out is skipped and said.
 */
export function fallbackChain(flag: string | undefined, setting: readonly string[] | undefined, main: string, loaded: LoadedSettings, pinned: Record<string, string>, report: (line: string) => void): string[] {
  const names = flag !== undefined ? flag.split(",") : (setting ?? []);
  const chain: string[] = [];
  for (const name of names.map((entry) => entry.trim()).filter((entry) => entry !== "")) {
    const model = resolveModelId(name, pinned);
    if (model === main || chain.includes(model)) continue;
    if (!modelAllowed(model, loaded.settings.availableModels, pinned)) {
      report(`clew: fallback model ${name} is not in availableModels; it is skipped.`);
      continue;
    }
    chain.push(model);
    if (chain.length === 3) break;
  }
  return chain;
}
