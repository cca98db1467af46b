/**
 * Replaces the MCP SDK's default JSON Schema validator (ajv, which generates code per schema and
 * weighs ~1.8 MB of the compiled binary) with the SDK's own alternative provider,
 * @cfworker/json-schema, in the compiled binary: scripts/mcp-sdk-plugins.ts points the SDK's
 * `validation/ajv-provider.js` import here. The SDK validates `structuredContent` against a tool's
 * `outputSchema` with it either way.
 *
 * The provider is loaded, and a tool's schema compiled, at that tool's first result that carries
 * `structuredContent`: the client asks for a validator for every tool with an `outputSchema` as
 * soon as a server lists its tools, and most of those tools are never called in a session.
 */
import type { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

type Provider = typeof import("@modelcontextprotocol/sdk/validation/cfworker");

/** `require` keeps validation synchronous, as the SDK calls it; the bundler defers the provider's evaluation to this call. */
function loadProvider(): Provider {
  return require("@modelcontextprotocol/sdk/validation/cfworker") as Provider;
}

export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private provider?: CfWorkerJsonSchemaValidator;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate: JsonSchemaValidator<T> | undefined;
    return (input) => {
      validate ??= (this.provider ??= new (loadProvider().CfWorkerJsonSchemaValidator)()).getValidator<T>(schema);
      return validate(input);
    };
  }
}
