/**
 * The session's output style: the `outputStyle` setting looked up among the built-in styles and
 * the `output-styles/` folders of the project's `.clew`/`.claude` folders (nearest first) and
 * the user's clew folder. Nothing is read unless a style other than the default is chosen; one
 * that does not exist is reported with where it was set and what there is, and the default is used.
 */
import { join } from "node:path";
import type { LoadedSettings } from "../settings/types.ts";

export interface SessionStyle {
  /** As stream-json's init and the SDK's initialize report it. */
  name: string;
  available: string[];
  /** The system block the style adds; none for the default. */
  block?: string;
}

const DEFAULT_STYLE: SessionStyle = { name: "default", available: ["default"] };

export async function sessionOutputStyle(input: { loaded: LoadedSettings; cwd: string; projectRoot: () => string | undefined; userDir: string; report: (line: string) => void }): Promise<SessionStyle> {
  const chosen = input.loaded.settings.outputStyle;
  if (chosen === undefined || chosen.trim() === "" || chosen.trim().toLowerCase() === "default") return DEFAULT_STYLE;
  const [{ chooseOutputStyle, outputStyleBlock }, { projectFolders }] = await Promise.all([import("../extensions/output-styles.ts"), import("../extensions/sources.ts")]);
  const folders = [...projectFolders(input.cwd, input.projectRoot()).map((folder) => join(folder, "output-styles")), join(input.userDir, "output-styles")];
  const choice = await chooseOutputStyle(chosen, folders);
  if (choice.kind === "style") return { name: choice.style.name, available: choice.available, block: outputStyleBlock(choice.style) };
  if (choice.kind === "unknown") {
    const file = input.loaded.origins.outputStyle?.file;
    input.report(`clew: outputStyle "${chosen}"${file ? ` (${file})` : ""} is not an output style here; there are: ${choice.available.join(", ")}. Custom styles go in .claude/output-styles/NAME.md or ${join(input.userDir, "output-styles")}/NAME.md. Using the default.`);
  }
  return { name: "default", available: choice.available };
}
