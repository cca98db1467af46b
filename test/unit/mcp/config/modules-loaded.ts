// Run as a separate process by fast-path.test.ts: loads the MCP configuration of the workspace
// given as argv[2] and prints which of zod and jsonc-parser got loaded on the way.
import { loadMcpConfig } from "../../../../src/mcp/config/load.ts";

const dir = process.argv[2] ?? ".";
const loaded = loadMcpConfig({ cwd: dir, configDir: `${dir}/config`, managedDirs: [`${dir}/managed`], cliConfigs: [], strict: false, env: {}, settings: {}, trusted: true });
const heavy = Object.keys(require.cache).filter((path) => /node_modules\/(zod|jsonc-parser)\//.test(path));
console.log(JSON.stringify({ servers: loaded.servers.length, problems: loaded.problems.length, zod: heavy.some((p) => p.includes("/zod/")), jsonc: heavy.some((p) => p.includes("/jsonc-parser/")) }));
