/**
 * Names the model sees for MCP tools and prompts: `mcp__<server>__<name>`, with characters the
 * API does not accept replaced by `_`, and names over the API's 64-character limit cut with a
 * short hash of the full name so two long names that share a beginning stay distinct.
 */
const MAX_TOOL_NAME = 64;

export function normaliseNamePart(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

function shortHash(text: string): string {
  return (Bun.hash.wyhash(text) & 0xffffffn).toString(16).padStart(6, "0");
}

export function mcpName(server: string, name: string): string {
  const full = `mcp__${normaliseNamePart(server)}__${normaliseNamePart(name)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const suffix = `_${shortHash(`${server}\u0000${name}`)}`;
  return `${full.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
}

/** Text the model reads from a server (descriptions, instructions), capped at 2 KB. */
export function capText(text: string, maxChars = 2048): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars - 1)}…`;
}

/** `mcpName`, made distinct from names already taken (two tools that normalise alike). */
export function uniqueMcpName(server: string, name: string, taken: ReadonlySet<string>): string {
  const plain = mcpName(server, name);
  if (!taken.has(plain)) return plain;
  const suffix = `_${shortHash(`${server}\u0000${name}\u0000dup`)}`;
  return `${plain.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
}
