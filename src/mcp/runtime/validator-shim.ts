/**
 * Replaces the MCP SDK's default JSON Schema validator (ajv, which generates code per schema and
 * weighs ~1.8 MB of the compiled binary) with the SDK's own alternative provider,
 * @cfworker/json-schema, in the compiled binary: scripts/build.ts points the SDK's
 * `validation/ajv-provider.js` import here. The SDK validates `structuredContent` against a tool's
 * `outputSchema` with it either way.
 */
export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
