/**
 * Recovery for frontmatter that strict YAML rejects. Real files break YAML in two ways: a
 * single-line value containing `: ` or starting with `[` (`argument-hint: [name] ["desc"]`), and
 * unindented multi-line descriptions full of `user:` / `assistant:` example lines. So the block is
 * cut into one chunk per top-level key — a chunk starts at a column-0 `key:` line whose key is a
 * known field or a plain lowercase identifier that is not a conversation role — and each chunk is
 * parsed as YAML on its own; a chunk that still fails keeps its text as a string.
 */

/** Keys that start dialogue lines inside example-laden descriptions, never fields. */
const DIALOGUE_KEYS = new Set(["user", "assistant", "human", "system", "commentary", "example", "examples", "context", "note"]);

interface Chunk {
  key: string;
  lines: string[];
}

function startsField(key: string, knownFields: ReadonlySet<string>): boolean {
  if (knownFields.has(key)) return true;
  return /^[a-z][a-z0-9_-]*$/.test(key) && !DIALOGUE_KEYS.has(key);
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2) {
    const first = trimmed.charAt(0);
    if ((first === '"' || first === "'") && trimmed.endsWith(first)) return trimmed.slice(1, -1);
  }
  return trimmed;
}

/** The chunk's text as a plain string: the first line's value plus its continuation lines. */
function rawValue(chunk: Chunk): string {
  const [first = "", ...rest] = chunk.lines;
  const head = first.slice(first.indexOf(":") + 1);
  const text = [head, ...rest].join("\n").trim();
  return rest.length === 0 ? unquote(text) : text;
}

export function recoverFields(
  block: string,
  knownFields: ReadonlySet<string>,
  parse: (block: string) => unknown,
): { data: Record<string, unknown> } {
  const inner = block.split("\n").map((line) => line.replace(/\r$/, ""));
  if (inner.at(-1) === "") inner.pop();
  // The fences are not content: the opening line and the closing `---`.
  inner.shift();
  if (/^---\s*$/.test(inner.at(-1) ?? "")) inner.pop();
  const chunks: Chunk[] = [];
  for (const line of inner) {
    const key = /^([A-Za-z_][\w-]*)\s*:(?:\s|$)/.exec(line)?.[1];
    if (key !== undefined && startsField(key, knownFields)) chunks.push({ key, lines: [line] });
    else chunks.at(-1)?.lines.push(line);
  }
  const data: Record<string, unknown> = {};
  for (const chunk of chunks) {
    if (chunk.key in data) continue;
    let value: unknown;
    try {
      const parsed = parse(`---\n${chunk.lines.join("\n")}\n---\n`);
      value = typeof parsed === "object" && parsed !== null && chunk.key in parsed ? (parsed as Record<string, unknown>)[chunk.key] : rawValue(chunk);
    } catch {
      value = rawValue(chunk);
    }
    data[chunk.key] = value;
  }
  return { data };
}
