/** The built-ins `clew -p` runs itself (print.ts: `/compact [instructions]`); stream-json's init lists them. */
export const HEADLESS_COMMANDS: readonly string[] = ["compact"];
