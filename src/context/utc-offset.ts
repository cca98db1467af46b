/**
 * The local UTC offset without the runtime's time-zone machinery. The first local-time call in
 * the compiled binary (`getFullYear`, `getTimezoneOffset`, Intl) initialises ICU's zone data,
 * measured at 4.5–7.5 ms: more than a minimal agent needs to start and send its first request.
 * The offset is read from the zone's TZif file, as libc does, and past the file's last listed
 * transition from the POSIX rule at its end (RFC 8536). Whatever this reader does not understand
 * gives `undefined`, and the caller falls back to Date's own local-time methods.
 */
import { readFileSync } from "node:fs";

export interface ZoneEnv {
  /** The `TZ` environment variable, as the process received it. */
  TZ?: string;
  /** `TZDIR` moves the zone database; this reader then defers to the runtime. */
  TZDIR?: string;
}

type ReadFile = (path: string) => Uint8Array | undefined;

function readZoneFile(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Seconds east of UTC at `atMs` for the zone `env` selects, or undefined when unsure. */
export function utcOffsetSeconds(env: ZoneEnv, atMs: number, read: ReadFile = readZoneFile): number | undefined {
  if (env.TZDIR !== undefined) return undefined;
  const tz = env.TZ;
  if (tz === undefined) return fromTzif(read("/etc/localtime"), atMs);
  if (tz === "") return 0; // libc: an empty TZ is UTC.
  const spec = tz.startsWith(":") ? tz.slice(1) : tz;
  if (spec.startsWith("/")) return fromTzif(read(spec), atMs);
  if (/^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/.test(spec)) {
    const file = read(`/usr/share/zoneinfo/${spec}`);
    if (file) return fromTzif(file, atMs);
  }
  return fromPosixRule(spec, atMs);
}

function fromTzif(data: Uint8Array | undefined, atMs: number): number | undefined {
  if (!data || data.length < 44) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const magic = (at: number) => at + 44 <= data.length && view.getUint32(at) === 0x545a6966; // "TZif"
  if (!magic(0)) return undefined;
  const counts = (at: number) => ({
    isut: view.getUint32(at + 20),
    isstd: view.getUint32(at + 24),
    leap: view.getUint32(at + 28),
    time: view.getUint32(at + 32),
    type: view.getUint32(at + 36),
    char: view.getUint32(at + 40),
  });
  const dataLength = (c: ReturnType<typeof counts>, timeSize: number) =>
    c.time * timeSize + c.time + c.type * 6 + c.char + c.leap * (timeSize + 4) + c.isstd + c.isut;
  let header = 0;
  let timeSize = 4;
  let c = counts(0);
  const version = data[4] ?? 0;
  if (version >= 0x32) {
    // Version 2+: skip the 32-bit block and use the 64-bit one that follows it.
    header = 44 + dataLength(c, 4);
    if (!magic(header)) return undefined;
    c = counts(header);
    timeSize = 8;
  }
  const times = header + 44;
  const indices = times + c.time * timeSize;
  const types = indices + c.time;
  const end = times + dataLength(c, timeSize);
  if (c.type === 0 || end > data.length) return undefined;
  const transitionAt = (i: number) => (timeSize === 8 ? Number(view.getBigInt64(times + i * 8)) : view.getInt32(times + i * 4));
  const offsetOfType = (type: number) => (type < c.type ? view.getInt32(types + type * 6) : undefined);
  const at = Math.floor(atMs / 1000);
  let last = -1;
  for (let low = 0, high = c.time - 1; low <= high; ) {
    const mid = (low + high) >> 1;
    if (transitionAt(mid) <= at) {
      last = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  if (last === c.time - 1 && timeSize === 8 && data[end] === 0x0a) {
    const close = data.indexOf(0x0a, end + 1);
    const footer = close > end + 1 ? new TextDecoder().decode(data.subarray(end + 1, close)) : "";
    if (footer !== "") return fromPosixRule(footer, atMs);
  }
  // Before the first transition the first time type applies (RFC 8536 §3.2).
  return offsetOfType(last < 0 ? 0 : (data[indices + last] ?? c.type));
}

// POSIX TZ strings: `std offset [dst [offset] [,start[/time],end[/time]]]`, e.g. "CET-1CEST,M3.5.0,M10.5.0/3".

interface Cursor {
  text: string;
  at: number;
}

function zoneName(cursor: Cursor): boolean {
  const quoted = /^<[A-Za-z0-9+-]{3,}>/.exec(cursor.text.slice(cursor.at));
  const plain = quoted ?? /^[A-Za-z]{3,}/.exec(cursor.text.slice(cursor.at));
  if (!plain) return false;
  cursor.at += plain[0].length;
  return true;
}

/** `[+-]hh[:mm[:ss]]` in seconds, or undefined when absent. */
function clock(cursor: Cursor, maxHours: number): number | undefined {
  const match = /^([+-]?)(\d{1,3})(?::(\d{2}))?(?::(\d{2}))?/.exec(cursor.text.slice(cursor.at));
  if (!match) return undefined;
  const hours = Number(match[2]);
  if (hours > maxHours) return undefined;
  cursor.at += match[0].length;
  const seconds = hours * 3600 + Number(match[3] ?? 0) * 60 + Number(match[4] ?? 0);
  return match[1] === "-" ? -seconds : seconds;
}

type DateRule = { kind: "month"; month: number; week: number; day: number } | { kind: "julian"; day: number; leapAware: boolean };

function dateRule(cursor: Cursor): { rule: DateRule; time: number } | undefined {
  const rest = cursor.text.slice(cursor.at);
  const month = /^M(\d{1,2})\.(\d)\.(\d)/.exec(rest);
  const julian = /^J(\d{1,3})/.exec(rest);
  const zeroBased = /^(\d{1,3})/.exec(rest);
  let rule: DateRule;
  if (month) {
    rule = { kind: "month", month: Number(month[1]), week: Number(month[2]), day: Number(month[3]) };
    if (rule.month < 1 || rule.month > 12 || rule.week < 1 || rule.week > 5 || rule.day > 6) return undefined;
  } else if (julian) rule = { kind: "julian", day: Number(julian[1]), leapAware: false };
  else if (zeroBased) rule = { kind: "julian", day: Number(zeroBased[1]), leapAware: true };
  else return undefined;
  cursor.at += (month ?? julian ?? zeroBased)?.[0].length ?? 0;
  let time = 7200;
  if (cursor.text[cursor.at] === "/") {
    cursor.at += 1;
    const given = clock(cursor, 167);
    if (given === undefined) return undefined;
    time = given;
  }
  return { rule, time };
}

/** Midnight UTC of the rule's day in `year`, in seconds. */
function ruleDay(rule: DateRule, year: number): number {
  const day = 86_400;
  if (rule.kind === "julian") {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    // Jn counts 1–365 and never names Feb 29; n counts from 0 and does.
    const index = rule.leapAware ? rule.day : rule.day - 1 + (leap && rule.day >= 60 ? 1 : 0);
    return Date.UTC(year, 0, 1) / 1000 + index * day;
  }
  const first = Date.UTC(year, rule.month - 1, 1) / 1000;
  const firstWeekday = new Date(first * 1000).getUTCDay();
  let date = 1 + ((rule.day - firstWeekday + 7) % 7) + (rule.week - 1) * 7;
  const length = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
  while (date > length) date -= 7;
  return first + (date - 1) * day;
}

/** POSIX offsets count west of UTC; this module's results count east (and never -0). */
const east = (posixOffset: number) => (posixOffset === 0 ? 0 : -posixOffset);

function fromPosixRule(spec: string, atMs: number): number | undefined {
  const cursor: Cursor = { text: spec, at: 0 };
  if (!zoneName(cursor)) return undefined;
  const std = clock(cursor, 24);
  if (std === undefined) return undefined;
  if (cursor.at === spec.length) return east(std);
  if (!zoneName(cursor)) return undefined;
  const dst = spec[cursor.at] === "," ? std - 3600 : clock(cursor, 24);
  // A daylight zone without rules means libc's compiled-in default: leave that to the runtime.
  if (dst === undefined || spec[cursor.at] !== ",") return undefined;
  cursor.at += 1;
  const start = dateRule(cursor);
  if (!start || spec[cursor.at] !== ",") return undefined;
  cursor.at += 1;
  const end = dateRule(cursor);
  if (!end || cursor.at !== spec.length) return undefined;
  const at = atMs / 1000;
  const year = new Date((at - std) * 1000).getUTCFullYear();
  // Daylight time starts at the given local standard time and ends at the given local daylight time.
  const begins = ruleDay(start.rule, year) + start.time + std;
  const ends = ruleDay(end.rule, year) + end.time + dst;
  const inDaylight = begins < ends ? at >= begins && at < ends : !(at >= ends && at < begins);
  return east(inDaylight ? dst : std);
}

/** `YYYY-MM-DD` at `now` for a zone `offsetSeconds` east of UTC. */
export function dateAtOffset(now: Date, offsetSeconds: number): string {
  const shifted = new Date(now.getTime() + offsetSeconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}
