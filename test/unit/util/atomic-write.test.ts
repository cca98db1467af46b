// writeFileAtomic: readers see the whole new content as soon as it returns (the rename), with the
// original's permission bits; the flush to the disk that follows in the background leaves no
// descriptor open once writesFlushed() resolves; a failed write leaves the old file and no temp.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic, writesFlushed } from "../../../src/util/atomic-write.ts";

const openDescriptors = () => readdirSync("/proc/self/fd").length;

describe("writeFileAtomic", () => {
  test("the content is in place at once; every flush ends and closes its descriptor", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clew-atomic-"));
    await writesFlushed();
    const before = openDescriptors();
    for (let i = 0; i < 40; i++) {
      const file = join(dir, `f${i % 4}.ts`);
      const text = `export const n = ${i};\n${"x".repeat(i * 100)}`;
      await writeFileAtomic(file, text);
      expect(readFileSync(file, "utf8")).toBe(text);
    }
    await writesFlushed();
    expect(openDescriptors()).toBe(before);
    // Only the four targets: no temp file is left behind.
    expect(readdirSync(dir).sort()).toEqual(["f0.ts", "f1.ts", "f2.ts", "f3.ts"]);
  });

  test("an existing file's permission bits are kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clew-atomic-"));
    const file = join(dir, "run.sh");
    writeFileSync(file, "echo old\n");
    chmodSync(file, 0o750);
    await writeFileAtomic(file, "echo new\n", 0o750);
    expect(statSync(file).mode & 0o777).toBe(0o750);
    expect(readFileSync(file, "utf8")).toBe("echo new\n");
  });

  test("a write into a folder that is gone fails and leaves nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clew-atomic-"));
    await expect(writeFileAtomic(join(dir, "missing", "f.ts"), "x")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });
});
