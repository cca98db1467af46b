import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAutoMemory, truncateMemoryIndex } from "../../../src/context/memory.ts";

function memoryDir(index?: string): string {
  const dir = join(realpathSync(mkdtempSync(join(tmpdir(), "clew-memory-"))), "memory");
  mkdirSync(dir, { recursive: true });
  if (index !== undefined) writeFileSync(join(dir, "MEMORY.md"), index);
  return dir;
}

function lines(count: number, width = 10): string {
  return Array.from({ length: count }, (_, index) => `- ${String(index + 1).padStart(width - 2, "0")}`).join("\n") + "\n";
}

describe("loadAutoMemory", () => {
  test("no MEMORY.md, no memory", () => {
    expect(loadAutoMemory({ memoryDir: memoryDir() })).toBeUndefined();
  });

  test("a short index loads whole, exactly 200 lines included", () => {
    const dir = memoryDir(lines(200));
    expect(loadAutoMemory({ memoryDir: dir })).toEqual({
      path: join(dir, "MEMORY.md"),
      label: "memory",
      reason: "start",
      content: lines(200),
    });
  });

  test("more than 200 lines: the first 200 and a note naming the full file", () => {
    const dir = memoryDir(lines(250));
    const path = join(dir, "MEMORY.md");
    const memory = loadAutoMemory({ memoryDir: dir });
    expect(memory?.content).toBe(
      `${lines(200).trimEnd()}\n\n[MEMORY.md was truncated: it has 250 lines (2750 bytes) and only the first 200 lines or 25 KB ` +
        `are loaded. The full file is ${path}. Keep it a short index, one line per memory, with details in topic files.]`,
    );
  });

  test("fewer than 200 lines but more than 25 KB: cut at the last whole line within 25 KB", () => {
    const text = lines(150, 200);
    const result = truncateMemoryIndex(text);
    expect(result.truncated).toBe(true);
    // 201 bytes per line with its newline: 127 whole lines fit in 25,600 bytes.
    expect(result.text).toBe(lines(127, 200).trimEnd());
    expect(loadAutoMemory({ memoryDir: memoryDir(text) })?.content.startsWith(`${lines(127, 200).trimEnd()}\n\n[MEMORY.md was truncated`)).toBe(true);
  });

  test("one line longer than 25 KB is cut inside the line, never inside a character", () => {
    const result = truncateMemoryIndex(`a${"é".repeat(20_000)}`);
    expect(result).toEqual({ text: `a${"é".repeat(12_799)}`, truncated: true });
    expect(truncateMemoryIndex("short\n")).toEqual({ text: "short\n", truncated: false });
  });
});
