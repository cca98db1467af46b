// Which release file a machine gets, and where a channel's or a version's release folder is.
import { describe, expect, test } from "bun:test";
import { type MachineFacts, platformFor } from "../../../src/update/platform.ts";
import { releaseFolder } from "../../../src/update/source.ts";

const linux = (facts: Partial<MachineFacts>): MachineFacts => ({ os: "linux", arch: "x64", musl: false, avx2: true, ...facts });

describe("platformFor", () => {
  test("every machine clew publishes a build for, and the ones it does not", () => {
    const cases: [MachineFacts, string | undefined][] = [
      [linux({}), "linux-x64"],
      [linux({ avx2: false }), "linux-x64-baseline"],
      // Unknown CPU flags: the default build, as the anchors do.
      [linux({ avx2: undefined }), "linux-x64"],
      [linux({ musl: true }), "linux-x64-musl"],
      [linux({ musl: true, avx2: false }), "linux-x64-musl"],
      [linux({ arch: "arm64", avx2: undefined }), "linux-arm64"],
      [linux({ arch: "arm64", musl: true, avx2: undefined }), undefined],
      [linux({ arch: "ia32" }), undefined],
      [{ os: "darwin", arch: "arm64", musl: false, avx2: undefined }, "darwin-arm64"],
      [{ os: "darwin", arch: "x64", musl: false, avx2: undefined }, "darwin-x64"],
      [{ os: "win32", arch: "x64", musl: false, avx2: undefined }, "windows-x64"],
      [{ os: "win32", arch: "arm64", musl: false, avx2: undefined }, undefined],
      [{ os: "freebsd", arch: "x64", musl: false, avx2: undefined }, undefined],
    ];
    expect(cases.map(([facts]) => platformFor(facts) as string | undefined)).toEqual(cases.map(([, platform]) => platform));
  });
});

describe("releaseFolder", () => {
  test("a channel folder's last segment is swapped for another channel or a version; other bases serve one line", () => {
    expect([
      releaseFolder("https://host/releases/latest", { channel: "stable" }),
      releaseFolder("https://host/releases/latest/", { version: "1.2.3" }),
      releaseFolder("/srv/clew/stable", { channel: "latest" }),
      releaseFolder("file:///srv/clew/latest", { version: "2.0.0" }),
      releaseFolder("/media/usb/clew", { channel: "stable" }),
      releaseFolder("/media/usb/clew", { version: "2.0.0" }),
    ]).toEqual([
      "https://host/releases/stable",
      "https://host/releases/1.2.3",
      "/srv/clew/latest",
      "file:///srv/clew/2.0.0",
      "/media/usb/clew",
      "/media/usb/clew/2.0.0",
    ]);
  });
});
