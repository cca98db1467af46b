// Esc Esc on an empty prompt opens /rewind; Esc with text typed, or one Esc, does not; two Esc
// bytes arriving together are two presses; a prompt given back by a rewind fills the next prompt.
import { describe, expect, test } from "bun:test";
import { LineEditor } from "../../../src/ui/editor.ts";
import { DOUBLE_ESCAPE_COMMAND, prefillNextPrompt, TtyInput, type InputEvent, type RawInput } from "../../../src/ui/input.ts";
import { KeyDecoder } from "../../../src/ui/keys.ts";
import { BufferTerminal } from "../../../src/ui/terminal.ts";
import { createTheme } from "../../../src/ui/theme.ts";

class FakeStdin implements RawInput {
  private listener: ((chunk: Buffer | string) => void) | undefined;
  setRawMode(): void {}
  on(_event: "data", listener: (chunk: Buffer | string) => void): void {
    this.listener = listener;
  }
  off(): void {
    this.listener = undefined;
  }
  resume(): void {}
  pause(): void {}
  send(text: string): void {
    this.listener?.(text);
  }
}

function input() {
  const term = new BufferTerminal(true, 60);
  const editor = new LineEditor(term, createTheme(false), { prompt: "> ", continuation: "  ", history: [] });
  const stdin = new FakeStdin();
  const tty = new TtyInput(stdin, term, editor);
  tty.start();
  return { tty, stdin, editor };
}

/** The event `read` resolved with, or "pending" when it has not. */
async function settle(read: Promise<InputEvent>): Promise<InputEvent | "pending"> {
  return Promise.race([read, Bun.sleep(100).then(() => "pending" as const)]);
}

describe("Esc Esc", () => {
  test("two Esc bytes in one chunk decode as two Esc presses", () => {
    expect(new KeyDecoder().push("\x1b\x1b[A")).toEqual([{ kind: "key", name: "escape" }, { kind: "key", name: "up" }]);
  });

  test("on an empty prompt it submits /rewind, pressed twice or sent together; one Esc alone does nothing", async () => {
    const { tty, stdin } = input();
    const read = tty.read();
    stdin.send("\x1b");
    expect(await settle(read)).toBe("pending");
    stdin.send("\x1b");
    expect(await settle(read)).toEqual({ kind: "submit", text: DOUBLE_ESCAPE_COMMAND });
    const next = tty.read();
    stdin.send("\x1b\x1b");
    expect(await settle(next)).toEqual({ kind: "submit", text: DOUBLE_ESCAPE_COMMAND });
    tty.close();
  });

  test("with text typed it leaves the text alone", async () => {
    const { tty, stdin, editor } = input();
    const read = tty.read();
    stdin.send("draft");
    stdin.send("\x1b\x1b");
    await Bun.sleep(80);
    expect(await settle(read)).toBe("pending");
    expect(editor.text).toBe("draft");
    tty.close();
  });

  test("a prompt given back fills the next prompt once", async () => {
    const { tty, stdin, editor } = input();
    prefillNextPrompt("fix the tests");
    const read = tty.read();
    expect(editor.text).toBe("fix the tests");
    stdin.send("\r");
    expect(await settle(read)).toEqual({ kind: "submit", text: "fix the tests" });
    void tty.read();
    expect(editor.text).toBe("");
    tty.close();
  });
});
