/**
 * Sets or removes one key path (`enabledPlugins["name@mkt"]`, `extraKnownMarketplaces.team`) in
 * a settings file. The edit goes through `jsonc-parser`'s `modify`, so every other key, the key
 * order and the user's indentation survive; the file is replaced atomically; a file that does not
 * parse is refused with its line and column rather than overwritten.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FormattingOptions } from "jsonc-parser";
import { writeFileAtomicSync } from "../util/atomic-write.ts";
import { FatalError } from "../util/errors.ts";
import { jsoncLibrary, parseStrictJson } from "./json-source.ts";
import { formatKeyPath, getAt, isPlainObject, type PathSegment } from "./key-path.ts";
import { SettingsError } from "./problems.ts";

export type WritableScope = "user" | "project" | "local";

export interface SettingsWrite {
  file: string;
  /** False when the file already held exactly this (or, for a removal, nothing was there). */
  changed: boolean;
}

/**
 * The file a scope writes: user `<configDir>/settings.json`; project `.clew/settings.json` when
 * the project has a `.clew/` folder, else `.claude/settings.json` (the folder the team already
 * uses); local the `settings.local.json` beside it.
 */
export function settingsFileFor(scope: WritableScope, configDir: string, projectDir: string): string {
  if (scope === "user") return join(configDir, "settings.json");
  const folder = existsSync(join(projectDir, ".clew")) || !existsSync(join(projectDir, ".claude")) ? ".clew" : ".claude";
  return join(projectDir, folder, scope === "project" ? "settings.json" : "settings.local.json");
}

/** The file's text; undefined when it does not exist (any other read failure is fatal). */
export function readExisting(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if (typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT") return undefined;
    throw new FatalError("io", `clew: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

/** Formats only the inserted text, so a compact `"env": {"A": "1"}` elsewhere is not reflowed. */
export function applyModify(text: string, path: PathSegment[], value: unknown): string {
  const { applyEdits, format, modify } = jsoncLibrary();
  const edits = modify(text, path, value, {}).sort((a, b) => b.offset - a.offset);
  if (!text.trim().includes("\n")) return applyEdits(text, edits);
  const options = formattingOf(text);
  let result = text;
  for (const edit of edits) {
    const edited = applyEdits(result, [edit]);
    result = edit.content === "" ? edited : applyEdits(edited, format(edited, { offset: edit.offset, length: edit.content.length }, options));
  }
  return result;
}

function parsedObject(file: string, text: string): Record<string, unknown> {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    throw new SettingsError({ file, line, column, message: `invalid JSON: ${message}; nothing was written — fix the file, then try again`, severity: "error" });
  }
  if (!isPlainObject(parsed.json.value)) {
    throw new SettingsError({ file, line: 1, column: 1, message: "a settings file must contain a JSON object ({ … }); nothing was written", severity: "error" });
  }
  return parsed.json.value;
}

/** Every parent on the path must be an object (or absent) — never turn a user's list into a map. */
function checkParents(file: string, root: Record<string, unknown>, path: readonly PathSegment[]): void {
  for (let depth = 1; depth < path.length; depth++) {
    const parent = getAt(root, path.slice(0, depth));
    if (parent !== undefined && !isPlainObject(parent)) {
      throw new FatalError("config", `clew: cannot set ${formatKeyPath(path)} in ${file}: ${formatKeyPath(path.slice(0, depth))} there is not an object.`, "Fix the file, then try again.");
    }
  }
}

export function setSettingsValue(file: string, path: PathSegment[], value: unknown): SettingsWrite {
  const existing = readExisting(file);
  if (existing === undefined || existing.trim() === "") {
    const { applyEdits, modify } = jsoncLibrary();
    const fresh: unknown = JSON.parse(applyEdits("{}", modify("{}", path, value, {})));
    writeFileAtomicSync(file, `${JSON.stringify(fresh, null, 2)}\n`);
    return { file, changed: true };
  }
  const root = parsedObject(file, existing);
  checkParents(file, root, path);
  if (JSON.stringify(getAt(root, path)) === JSON.stringify(value)) return { file, changed: false };
  const source = /^\s*\{\s*\}\s*$/.test(existing) ? "{\n}\n" : existing;
  writeFileAtomicSync(file, applyModify(source, path, value));
  return { file, changed: true };
}

/**
 * Removes the key; an object left empty by the removal (`enabledPlugins: {}`) is removed too, so
 * uninstalling leaves no trace of the plugin in the file.
 */
export function removeSettingsValue(file: string, path: PathSegment[], options: { pruneEmptyParent?: boolean } = {}): SettingsWrite {
  const existing = readExisting(file);
  if (existing === undefined) return { file, changed: false };
  const root = parsedObject(file, existing);
  if (getAt(root, path) === undefined) return { file, changed: false };
  let text = applyModify(existing, path, undefined);
  const parentPath = path.slice(0, -1);
  if ((options.pruneEmptyParent ?? true) && parentPath.length > 0) {
    const parent = getAt(parsedObject(file, text), parentPath);
    if (isPlainObject(parent) && Object.keys(parent).length === 0) text = applyModify(text, parentPath, undefined);
  }
  writeFileAtomicSync(file, text);
  return { file, changed: true };
}

/** The value at `path` in one file (undefined when the file or key is missing). */
export function readSettingsValue(file: string, path: readonly PathSegment[]): unknown {
  const existing = readExisting(file);
  if (existing === undefined || existing.trim() === "") return undefined;
  return getAt(parsedObject(file, existing), path);
}
