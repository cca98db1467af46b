// Entry point: everything else is loaded from cli/ so start-up work stays in one place.
import pkg from "../package.json" with { type: "json" };
import { main } from "./cli/main.ts";

const code = await main(process.argv.slice(2), pkg.version);
// Let buffered stdout drain to a slow consumer before exiting, but never wait forever: a
// terminal that went away (SIGHUP) never drains.
await Promise.race([new Promise<void>((resolve) => process.stdout.write("", () => resolve())), Bun.sleep(5_000)]);
process.exit(code);
