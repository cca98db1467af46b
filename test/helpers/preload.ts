// Every test runs with a private config dir and without real credentials, so no test can touch
// the developer's ~/.clew or reach the real API by accident.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

for (const key of Object.keys(process.env)) {
  if (key.startsWith("ANTHROPIC_") || key.startsWith("CLEW_") || key.startsWith("CLAUDE_")) {
    delete process.env[key];
  }
}
process.env.CLEW_CONFIG_DIR = mkdtempSync(join(tmpdir(), "clew-test-config-"));
process.env.NO_COLOR = "1";
