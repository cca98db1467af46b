import { join } from "node:path";

/** `~` and `~/…` in a path the user or a rule wrote, against their home folder. */
export function expandHome(path: string, homeDir: string): string {
  if (path === "~") return homeDir;
  return path.startsWith("~/") ? join(homeDir, path.slice(2)) : path;
}
