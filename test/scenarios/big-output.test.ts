// A 50 MB tool output neither reaches the model whole nor enters the transcript whole: the model
// gets the head, the tail and where the full text is; the transcript stays small.
import { afterEach, describe, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolResults, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FIFTY_MB = 50 * 1024 * 1024;

describe("scenario: big tool outputs", () => {
  test("a 50 MB command output and a 50 MB one-line file stay out of the request and the transcript", async () => {
    const dir = writeWorkspace({});
    writeFileSync(join(dir, "huge.txt"), "b".repeat(FIFTY_MB));
    const configDir = tempDirectory("clew-config-");
    server = await startFakeAnthropic({
      script: [
        reply()
          .toolUse("Bash", { command: `head -c ${FIFTY_MB} /dev/zero | tr '\\0' 'a'` })
          .toolUse("Read", { file_path: join(dir, "huge.txt") }),
        (request) => reply().text(toolResults(request).map((result) => String(result.text.length)).join(",")),
      ],
    });
    const run = await runClew(["-p", "make noise", "--output-format", "json", "--permission-mode", "bypassPermissions"], {
      cwd: dir,
      baseURL: server.url,
      configDir,
    });
    expect(run.code).toBe(0);
    expect(server.violations).toEqual([]);
    const lengths = (JSON.parse(run.stdout) as { result: string }).result.split(",").map(Number);
    for (const length of lengths) expect(length).toBeLessThan(200_000);
    const bash = toolResults(server.requests[1] as never)[0]?.text ?? "";
    expect(bash).toMatch(/^a+/);
    expect(bash).toContain("characters truncated");
    // The full output is on disk, where the model is told to look, and complete.
    const savedAt = /full output is saved at (\S+\.stdout\.txt)/.exec(bash)?.[1];
    expect(savedAt).toBeDefined();
    expect(statSync(savedAt as string).size).toBe(FIFTY_MB);
    expect(statSync(savedAt as string).mode & 0o777).toBe(0o600);
    const [transcript] = transcripts(configDir);
    expect(statSync(transcript as string).size).toBeLessThan(1_000_000);
  });
});
