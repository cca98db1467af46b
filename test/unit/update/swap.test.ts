import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { restorePrevious, swapInto } from "../../../src/update/swap.ts";

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "clew-swap-"));
  const binary = join(dir, "clew.exe");
  const staged = join(dir, ".clew.exe.staged");
  writeFileSync(binary, "old");
  writeFileSync(staged, "new");
  return { binary, staged };
}

describe("swapInto", () => {
  for (const platform of ["linux", "win32"] as const) {
    test(`${platform}: the staged file takes the binary's place and the old one is kept as .previous`, () => {
      const { binary, staged } = setup();
      swapInto(staged, binary, platform);
      expect(readFileSync(binary, "utf8")).toBe("new");
      expect(readFileSync(`${binary}.previous`, "utf8")).toBe("old");
    });
  }

  test("win32: a staged file that cannot be moved leaves the binary where it was", () => {
    const { binary } = setup();
    expect(() => swapInto(join(binary, "..", "missing"), binary, "win32")).toThrow();
    expect(readFileSync(binary, "utf8")).toBe("old");
  });

  for (const platform of ["linux", "win32"] as const) {
    test(`${platform}: restorePrevious swaps the binary and .previous back`, () => {
      const { binary, staged } = setup();
      swapInto(staged, binary, platform);
      restorePrevious(binary, platform);
      expect(readFileSync(binary, "utf8")).toBe("old");
      expect(readFileSync(`${binary}.previous`, "utf8")).toBe("new");
    });
  }
});
