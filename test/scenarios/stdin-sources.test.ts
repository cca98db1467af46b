// `-p` reads standard input whatever it is: a pipe, a regular file (`clew -p … < file`), /dev/null
// (what CI runners and spawners give) — and refuses more than 10 MB, an endless device included,
// instead of reading it forever or cutting it short.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { clewCommand, clewEnv, tempDirectory } from "../helpers/clew-process.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runWithStdin(args: string[], stdin: "ignore" | ReturnType<typeof Bun.file>): Promise<{ code: number; stdout: string; stderr: string; fake: FakeServer }> {
  const fake = (server = await startFakeAnthropic({ script: [reply().text("All done.")] }));
  const dir = tempDirectory("clew-stdin-");
  const child = Bun.spawn([...clewCommand(), ...args], { cwd: dir, env: clewEnv({ cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") }), stdin, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr, fake };
}

describe("standard input of -p", () => {
  test("a regular file comes before the prompt argument, whole", async () => {
    const file = join(tempDirectory("clew-stdin-file-"), "log.txt");
    const text = `${"x".repeat(200_000)}\nlast line ✓\n`;
    writeFileSync(file, text);
    const run = await runWithStdin(["-p", "explain this log"], Bun.file(file));
    expect(run.code).toBe(0);
    expect(lastUserText(run.fake.requests[0]!)).toBe(`${text.trim()}\n\nexplain this log`);
  });

  test("/dev/null gives nothing: the argument alone is the prompt", async () => {
    const run = await runWithStdin(["-p", "hello"], Bun.file("/dev/null"));
    expect(run.code).toBe(0);
    expect(lastUserText(run.fake.requests[0]!)).toBe("hello");
  });

  test("a file over 10 MB is refused with the limit named, and nothing is sent", async () => {
    const file = join(tempDirectory("clew-stdin-file-"), "big.txt");
    // Multi-byte text: under 10 M characters but over 10 MB — refused all the same, never cut short.
    writeFileSync(file, "é".repeat(6 * 1024 * 1024));
    const run = await runWithStdin(["-p", "summarise"], Bun.file(file));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Error: Input from stdin is larger than 10 MB.");
    expect(run.fake.requests).toHaveLength(0);
  });

  test("an endless device is refused at the limit instead of read forever", async () => {
    const run = await runWithStdin(["-p", "summarise"], Bun.file("/dev/zero"));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Error: Input from stdin is larger than 10 MB.");
  });
});
