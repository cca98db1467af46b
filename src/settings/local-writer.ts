/**
 * "Yes, don't ask again": appends an allow rule to `<startDir>/.clew/settings.local.json`. The
 * file is edited in place with `jsonc-parser`'s `modify`, so every other key, the key order and
 * the user's indentation survive; it is written atomically; a rule already there is not added
 * twice. A file that doesn't parse is left alone (the error says so) rather than overwritten.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyEdits, format, type FormattingOptions, modify } from "jsonc-parser";
import { FatalError } from "../util/errors.ts";
import { writeFileAtomicSync } from "../util/atomic-write.ts";
import { parseStrictJson } from "./json-source.ts";
import { isPlainObject } from "./key-path.ts";
import { SettingsError } from "./problems.ts";

export interface LocalRuleWrite {
  file: string;
  /** False when the rule was already in the file. */
  added: boolean;
}

export function localSettingsPath(startDir: string): string {
  return join(startDir, ".clew", "settings.local.json");
}

function readExisting(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if (typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT") return undefined;
    throw new FatalError("io", `clew: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The file's own indentation and line ending, so the edit looks like the user wrote it. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

/**
 * `modify` with formatting options would re-indent every line the edit touches, reflowing a
 * compact `"env": {"A": "1"}` the user wrote; formatting only the inserted text leaves it alone.
 */
function insertRule(text: string, rule: string): string {
  const edits = modify(text, ["permissions", "allow", -1], rule, {}).sort((a, b) => b.offset - a.offset);
  // A file written on one line stays on one line.
  if (!text.trim().includes("\n")) return applyEdits(text, edits);
  const options = formattingOf(text);
  let result = text;
  for (const edit of edits) {
    const edited = applyEdits(result, [edit]);
    result = applyEdits(edited, format(edited, { offset: edit.offset, length: edit.content.length }, options));
  }
  return result;
}

export function addLocalAllowRule(startDir: string, rule: string): LocalRuleWrite {
  const file = localSettingsPath(startDir);
  const existing = readExisting(file);
  if (existing === undefined || existing.trim() === "" || /^\s*\{\s*\}\s*$/.test(existing)) {
    writeFileAtomicSync(file, `${JSON.stringify({ permissions: { allow: [rule] } }, null, 2)}\n`);
    return { file, added: true };
  }
  const parsed = parseStrictJson(existing);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    throw new SettingsError({ file, line, column, message: `invalid JSON: ${message}; the rule was not saved`, severity: "error" });
  }
  const value = parsed.json.value;
  const permissions = isPlainObject(value) ? value.permissions : undefined;
  const allow = isPlainObject(permissions) ? permissions.allow : undefined;
  const shapeOk = isPlainObject(value) && (permissions === undefined || isPlainObject(permissions)) && (allow === undefined || Array.isArray(allow));
  if (!shapeOk) {
    throw new FatalError("config", `clew: cannot add a rule to ${file}: permissions.allow there is not a list.`, "Fix the file, then try again.");
  }
  if (Array.isArray(allow) && allow.includes(rule)) return { file, added: false };
  writeFileAtomicSync(file, insertRule(existing, rule));
  return { file, added: true };
}
