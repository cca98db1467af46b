// Every test runs with a private config dir and temp dir and without real credentials, so no
// test can touch the developer's ~/.clew, reach the real API by accident, or litter /tmp.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

for (const key of Object.keys(process.env)) {
  if (key === "CLEW_BIN") continue;
  if (key.startsWith("ANTHROPIC_") || key.startsWith("CLEW_") || key.startsWith("CLAUDE_")) {
    delete process.env[key];
  }
}
const root = mkdtempSync(join(tmpdir(), "clew-tests-"));
process.env.TMPDIR = root;
process.env.CLEW_CONFIG_DIR = mkdtempSync(join(root, "config-"));
process.env.NO_COLOR = "1";
afterAll(() => rmSync(root, { recursive: true, force: true }));
