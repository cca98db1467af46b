// Entry point: everything else is loaded from cli/ so start-up work stays in one place.
import pkg from "../package.json" with { type: "json" };
import { main } from "./cli/main.ts";
import { buildVersion } from "./update/build-info.ts";

// Every mode has written all its output when main returns (the interactive one drains its own).
process.exit(await main(process.argv.slice(2), buildVersion(pkg.version)));
