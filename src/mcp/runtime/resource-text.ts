/** What the model and the prompt read of MCP resource contents and prompt messages: text only. */

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** `resources/read` contents as text; binary contents become a one-line note. */
export function resourceContentsText(contents: readonly unknown[]): string {
  const parts = contents.map((raw) => {
    const item = record(raw);
    const uri = typeof item.uri === "string" ? item.uri : "?";
    if (typeof item.text === "string") return item.text;
    const blob = typeof item.blob === "string" ? item.blob : "";
    const mime = typeof item.mimeType === "string" ? item.mimeType : "unknown type";
    return `[binary resource ${uri} (${mime}, ${Math.floor((blob.length * 3) / 4)} bytes) not shown]`;
  });
  return parts.join("\n");
}

/** One prompt message's content as text. */
export function promptContentText(raw: unknown): string {
  const content = record(raw);
  switch (content.type) {
    case "text":
      return typeof content.text === "string" ? content.text : "";
    case "resource":
      return resourceContentsText([content.resource]);
    case "resource_link":
      return `Resource link: ${String(content.name ?? "resource")} <${String(content.uri ?? "?")}>`;
    default:
      return `[${String(content.type)} content not shown]`;
  }
}
