// The TZif/POSIX reader must give the offset libc gives (GNU date reads the same zone files), for
// every zone on this machine, around DST changes, past the files' last listed transitions, and
// for POSIX TZ strings; and it must step aside (undefined) whenever it cannot be sure.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { dateAtOffset, utcOffsetSeconds } from "../../../src/context/utc-offset.ts";

const ZONEINFO = "/usr/share/zoneinfo";

// Around the EU and US changes of 2026 and the southern ones, plus the past and the far future.
const INSTANTS = [
  "1975-06-01T12:00:00Z", "1999-12-31T23:30:00Z", "2026-03-08T06:59:59Z", "2026-03-08T07:00:00Z",
  "2026-03-29T00:59:59Z", "2026-03-29T01:00:00Z", "2026-04-05T15:59:59Z", "2026-04-05T16:00:00Z",
  "2026-10-04T15:59:59Z", "2026-10-04T16:00:00Z", "2026-10-25T00:59:59Z", "2026-10-25T01:00:00Z",
  "2026-11-01T05:59:59Z", "2026-11-01T06:00:00Z", "2026-12-01T10:00:00Z", "2041-07-15T12:00:00Z",
  "2077-01-20T03:00:00Z",
].map((iso) => Date.parse(iso));

function zoneFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (prefix === "" && (name === "right" || name === "posix")) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return zoneFiles(path, `${prefix}${name}/`);
    const head = readFileSync(path).subarray(0, 4).toString("latin1");
    return head === "TZif" ? [`${prefix}${name}`] : [];
  });
}

/** libc's offset in seconds for each instant, via one GNU date call per zone. */
function libcOffsets(tz: string): number[] {
  const run = Bun.spawnSync(["date", "-f", "-", "+%z"], {
    env: { TZ: tz, PATH: process.env.PATH ?? "/usr/bin:/bin" },
    stdin: new TextEncoder().encode(INSTANTS.map((ms) => `@${ms / 1000}`).join("\n")),
  });
  return run.stdout
    .toString()
    .trim()
    .split("\n")
    .map((z) => (z.startsWith("-") ? -1 : 1) * (Number(z.slice(1, 3)) * 3600 + Number(z.slice(3, 5)) * 60));
}

describe("UTC offset from the zone database", () => {
  test("every zone file gives libc's offset at every instant", () => {
    const zones = zoneFiles(ZONEINFO);
    expect(zones.length).toBeGreaterThan(300);
    const mismatches: string[] = [];
    for (const zone of zones) {
      const expected = libcOffsets(zone);
      INSTANTS.forEach((ms, i) => {
        const ours = utcOffsetSeconds({ TZ: zone }, ms);
        // date prints whole minutes; a few historical offsets carry seconds.
        if (ours === undefined || Math.trunc(ours / 60) !== Math.trunc((expected[i] as number) / 60)) {
          mismatches.push(`${zone} ${new Date(ms).toISOString()}: ${ours} vs ${expected[i]}`);
        }
      });
    }
    expect(mismatches).toEqual([]);
  });

  test("POSIX TZ strings, ':' and absolute paths are read like libc reads them", () => {
    for (const tz of ["EST5EDT,M3.2.0,M11.1.0", "<+0330>-3:30", "UTC0", "AEST-10AEDT,M10.1.0,M4.1.0/3", "CET-1CEST,M3.5.0,M10.5.0/3", "IST-2IDT,M3.4.4/26,M10.5.0", "XYZ3ABC,J60/1,300/4"]) {
      const expected = libcOffsets(tz);
      expect(INSTANTS.map((ms) => utcOffsetSeconds({ TZ: tz }, ms))).toEqual(expected);
    }
    const berlin = INSTANTS.map((ms) => utcOffsetSeconds({ TZ: "Europe/Berlin" }, ms));
    expect(INSTANTS.map((ms) => utcOffsetSeconds({ TZ: ":Europe/Berlin" }, ms))).toEqual(berlin);
    expect(INSTANTS.map((ms) => utcOffsetSeconds({ TZ: `${ZONEINFO}/Europe/Berlin` }, ms))).toEqual(berlin);
  });

  test("no TZ reads /etc/localtime; an empty TZ is UTC", () => {
    const localtime = readFileSync("/etc/localtime");
    const read = (path: string) => (path === "/etc/localtime" ? localtime : undefined);
    expect(utcOffsetSeconds({}, INSTANTS[0] as number, read)).toBe(libcOffsets(":/etc/localtime")[0] as number);
    expect(utcOffsetSeconds({ TZ: "" }, INSTANTS[0] as number)).toBe(0);
  });

  test("anything it cannot be sure of is left to the runtime", () => {
    const at = INSTANTS[5] as number;
    expect(utcOffsetSeconds({ TZ: "Nowhere/Land" }, at)).toBeUndefined();
    expect(utcOffsetSeconds({ TZ: "Europe/Berlin", TZDIR: "/elsewhere" }, at)).toBeUndefined();
    expect(utcOffsetSeconds({ TZ: "ABC5DEF" }, at)).toBeUndefined(); // no file: libc's built-in default rules
    expect(utcOffsetSeconds({}, at, () => new TextEncoder().encode("not a zone file at all, not TZif data"))).toBeUndefined();
    expect(utcOffsetSeconds({}, at, () => undefined)).toBeUndefined();
  });

  test("the local date is the UTC date shifted by the offset", () => {
    const instant = new Date("2026-12-31T23:30:00Z");
    expect([dateAtOffset(instant, 0), dateAtOffset(instant, 3600), dateAtOffset(instant, -5 * 3600)]).toEqual(["2026-12-31", "2027-01-01", "2026-12-31"]);
  });
});
