import { describe, expect, test } from "bun:test";
import { mapToolResult, textLimit } from "../../../../src/mcp/runtime/results.ts";

const limits = { maxOutputTokens: 25_000 };

describe("MCP tool results", () => {
  test("text blocks join into one string the executor can spill", () => {
    expect(mapToolResult({ content: [{ type: "text", text: "one" }, { type: "text", text: "two" }] }, limits)).toEqual({ content: "one\ntwo" });
  });

  test("images become image blocks; unsupported image types and audio become notes", () => {
    const output = mapToolResult(
      {
        content: [
          { type: "text", text: "here" },
          { type: "image", data: "iVBORw0K", mimeType: "image/png" },
          { type: "image", data: "AAAA", mimeType: "image/tiff" },
          { type: "audio", data: "AAAAAAAA", mimeType: "audio/wav" },
        ],
      },
      limits,
    );
    expect(output).toEqual({
      content: [
        { type: "text", text: "here" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } },
        { type: "text", text: "[image (image/tiff, 3 bytes) not shown: the model accepts JPEG, PNG, GIF and WebP only]" },
        { type: "text", text: "[audio (audio/wav, 6 bytes) returned by the tool; audio cannot be passed to the model]" },
      ],
    });
  });

  test("resource links and embedded resources become text", () => {
    const output = mapToolResult(
      {
        content: [
          { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain", description: "the a file" },
          { type: "resource", resource: { uri: "test://b", text: "B's text" } },
          { type: "resource", resource: { uri: "test://c", blob: "AAAA", mimeType: "application/zip" } },
        ],
      },
      limits,
    );
    expect(output).toEqual({
      content: "Resource link: a.txt <file:///a.txt> (text/plain) — the a file\n[resource test://b]\nB's text\n[binary resource test://c (application/zip, 3 bytes) not shown]",
    });
  });

  test("structuredContent is the call's data, and its JSON is the text when there is no content", () => {
    expect(mapToolResult({ content: [{ type: "text", text: "{}" }], structuredContent: { t: 1 } }, limits)).toEqual({ content: "{}", data: { t: 1 } });
    expect(mapToolResult({ content: [], structuredContent: { t: 1 } }, limits)).toEqual({ content: '{"t":1}', data: { t: 1 } });
  });

  test("isError is an error output, not a throw", () => {
    expect(mapToolResult({ content: [{ type: "text", text: "bad" }], isError: true }, limits)).toEqual({ content: "bad", isError: true });
    expect(mapToolResult({ content: [], isError: true }, limits)).toEqual({ content: "(the tool reported an error without a message)", isError: true });
  });

  test("text over MAX_MCP_OUTPUT_TOKENS is cut with a marker that says how to get less", () => {
    const output = mapToolResult({ content: [{ type: "text", text: "x".repeat(1000) }] }, { maxOutputTokens: 100 });
    expect(typeof output.content).toBe("string");
    const text = output.content as string;
    expect(text.startsWith("x".repeat(400))).toBe(true);
    expect(text.slice(400)).toBe(
      "\n\n[Output truncated: this MCP tool result is 1000 characters, over the limit of 400 (MAX_MCP_OUTPUT_TOKENS=100). Ask the tool for less — a narrower query, a smaller page or range, a filter — to see the rest.]",
    );
  });

  test("a tool's maxResultSizeChars raises the text limit, up to 500,000", () => {
    expect(textLimit({ maxOutputTokens: 100, toolMaxChars: 2000 })).toBe(2000);
    expect(textLimit({ maxOutputTokens: 100, toolMaxChars: 10_000_000 })).toBe(500_000);
    expect(textLimit({ maxOutputTokens: 25_000, toolMaxChars: 10 })).toBe(100_000);
  });
});
