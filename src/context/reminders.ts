/**
 * Things that change during a session reach the model as short reminders appended to the
 * newest user message, never by editing earlier messages or the system prompt, so every
 * request's prefix stays byte-identical to the one before it.
 */
import { dateAtOffset, utcOffsetSeconds, type ZoneEnv } from "./utc-offset.ts";

/**
 * `YYYY-MM-DD` in the user's local time zone: from the zone file when it can be read (cheap),
 * else from the runtime's own local time (which initialises ICU's zone data on first use).
 */
export function localDate(now: Date, zone: ZoneEnv = {}): string {
  const offset = utcOffsetSeconds(zone, now.getTime());
  if (offset !== undefined) return dateAtOffset(now, offset);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function dateLine(today: string): string {
  return `Today's date is ${today}.`;
}

export function changedFilesLine(paths: readonly string[]): string {
  return `These files changed on disk since you last read them (edited by the user or another process): ${paths.join(", ")}. Read them again before editing them.`;
}
