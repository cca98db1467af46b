// Raw terminal bytes → keys.
import { describe, expect, test } from "bun:test";
import { KeyDecoder, type Key } from "../../../src/ui/keys.ts";

const key = (name: string): Key => ({ kind: "key", name } as Key);

describe("key decoder", () => {
  test("text runs, control keys and escape sequences", () => {
    const decoder = new KeyDecoder();
    expect(decoder.push("ab\x7fc\r")).toEqual([{ kind: "text", text: "ab" }, key("backspace"), { kind: "text", text: "c" }, key("enter")]);
    expect(decoder.push("\x1b[A\x1b[B\x1bOC\x1b[D\x1b[H\x1b[4~\x1b[3~\x1b[Z")).toEqual(
      ["up", "down", "right", "left", "home", "end", "delete", "shiftTab"].map(key),
    );
    expect(decoder.push("\x03\x04\x01\x05\x0b\x15\x17\t\x1b\r")).toEqual(
      ["ctrlC", "ctrlD", "ctrlA", "ctrlE", "ctrlK", "ctrlU", "deleteWordBack", "tab", "newline"].map(key),
    );
    expect(decoder.push("é→😀")).toEqual([{ kind: "text", text: "é→😀" }]);
  });

  test("a lone Esc waits for the caller's timeout; a split sequence is joined", () => {
    const decoder = new KeyDecoder();
    expect(decoder.push("\x1b")).toEqual([]);
    expect(decoder.pending).toBe(true);
    expect(decoder.flush()).toEqual([key("escape")]);
    expect(decoder.push("\x1b")).toEqual([]);
    expect(decoder.push("[A")).toEqual([key("up")]);
    expect(decoder.pending).toBe(false);
    expect(decoder.push("\x1b[1;5")).toEqual([]);
    expect(decoder.push("C")).toEqual([key("wordRight")]);
  });

  test("unknown sequences are dropped, not typed", () => {
    expect(new KeyDecoder().push("a\x1b[15~b")).toEqual([{ kind: "text", text: "a" }, { kind: "text", text: "b" }]);
  });

  test("bracketed paste is one key with newlines, even across chunks", () => {
    const decoder = new KeyDecoder();
    expect(decoder.push("x\x1b[200~line one\r\nline")).toEqual([{ kind: "text", text: "x" }]);
    expect(decoder.push(" two\x1b[20")).toEqual([]);
    expect(decoder.push("1~\r")).toEqual([{ kind: "paste", text: "line one\nline two" }, key("enter")]);
  });
});
