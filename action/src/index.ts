// The entry point GitHub runs (bundled into action/dist/index.js by scripts/build-action.ts);
// the logic is in main.ts so @github/local-action can call run() directly.
import { run } from "./main.ts";

await run();
