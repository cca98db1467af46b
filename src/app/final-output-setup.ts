/**
 * `--json-schema` (initialize's `jsonSchema`): the StructuredOutput tool and the loop's check of
 * the turn's answer. The tool and its JSON Schema validator are loaded only when a schema is given.
 */
import type { AnyTool } from "../tools/types.ts";
import type { FinalOutputPort } from "../loop/loop.ts";
import { errorMessage, FatalError } from "../util/errors.ts";

export async function finalOutputSetup(given: unknown): Promise<{ tool: AnyTool; port: FinalOutputPort } | undefined> {
  if (given === undefined) return undefined;
  const { FinalOutput, readJsonSchema, structuredOutputTool } = await import("../tools/structured-output.ts");
  let schema: Record<string, unknown>;
  try {
    schema = readJsonSchema(given);
  } catch (error) {
    throw new FatalError("usage", "Error: --json-schema is not a valid JSON Schema", `${errorMessage(error)}. Pass a JSON Schema object, e.g. --json-schema '{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}'.`);
  }
  const port = new FinalOutput();
  return { tool: structuredOutputTool(schema, port), port };
}
