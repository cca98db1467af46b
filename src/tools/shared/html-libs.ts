/**
 * WebFetch's HTML libraries as one module. The binary embeds it as one compressed file instead of
 * bundled chunks (scripts/cold-modules.ts): their bytecode would cost ~3 MB of a binary with a
 * 120 MB limit, for code only a session that fetches an HTML page runs.
 */
import { Readability } from "@mozilla/readability";
import { gfm } from "@joplin/turndown-plugin-gfm";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

export const htmlLibs = { Readability, gfm, parseHTML, TurndownService };
