// Real temporary folders for the extension tests.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function tempDir(prefix = "clew-ext-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** A SKILL.md / command / agent file with the given frontmatter lines and body. */
export function md(frontmatter: string[] | undefined, body = "Body text.\n"): string {
  return frontmatter === undefined ? body : `---\n${frontmatter.join("\n")}\n---\n${body}`;
}
