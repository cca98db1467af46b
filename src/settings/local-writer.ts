/**
 * "Yes, don't ask again": appends an allow rule to `<startDir>/.clew/settings.local.json`. The
 * file is edited in place with `jsonc-parser`'s `modify`, so every other key, the key order and
 * the user's indentation survive; it is written atomically; a rule already there is not added
 * twice. A file that doesn't parse is left alone (the error says so) rather than overwritten.
 */
import { join } from "node:path";
import { FatalError } from "../util/errors.ts";
import { writeFileAtomicSync } from "../util/atomic-write.ts";
import { parseStrictJson } from "./json-source.ts";
import { isPlainObject } from "./key-path.ts";
import { SettingsError } from "./problems.ts";
import { applyModify, readExisting } from "./settings-writer.ts";

export interface LocalRuleWrite {
  file: string;
  /** False when the rule was already in the file. */
  added: boolean;
}

export function localSettingsPath(startDir: string): string {
  return join(startDir, ".clew", "settings.local.json");
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
  writeFileAtomicSync(file, applyModify(existing, ["permissions", "allow", -1], rule));
  return { file, added: true };
}
