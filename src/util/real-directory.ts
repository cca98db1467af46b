import { realpathSync, statSync } from "node:fs";

/** The real path of an existing directory, else undefined (a file, a dangling link, nothing there). */
export function realDirectory(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}
