import { describe, expect, test } from "bun:test";
import { closestName, commandWord, unknownCommandError, type CommandLookup } from "../../../src/cli/unknown-command.ts";

const noPaths = () => false;

describe("commandWord", () => {
  test("the first word when it reads as a command and is no existing path", () => {
    const words = ["/deplyo prod", "  /plugin:cmd.v2_x-y\nmore", "/tmp is full", "/usr/bin/foo", "/deploy,", "/ x", "no /slash", "/mcp__s__p a", "/"].map((prompt) =>
      commandWord(prompt, (path) => path === "/tmp"),
    );
    expect(words).toEqual(["deplyo", "plugin:cmd.v2_x-y", undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe("closestName", () => {
  test("within two edits, case aside; a plugin's bare name counts; else a prefix; else nothing", () => {
    const names = ["deploy", "release-notes", "toolkit:changelog", "compact"];
    expect(["deplyo", "DEPLOY", "chnagelog", "rel", "ab", "zzz"].map((typed) => closestName(typed, names))).toEqual(["deploy", "deploy", "toolkit:changelog", "release-notes", undefined, undefined]);
  });
});

describe("unknownCommandError", () => {
  const source = (lookup: CommandLookup, asked: string[] = []) => ({
    lookUpCommand: async (word: string) => {
      asked.push(word);
      return lookup;
    },
  });

  test("the registry is asked only for a command-looking word that is not /compact", async () => {
    const asked: string[] = [];
    const known = source({ known: true, names: [] }, asked);
    for (const prompt of ["hello", "/tmp/x y", "/compact keep notes", "/mcp__a__b"]) expect(await unknownCommandError(prompt, known, noPaths)).toBeUndefined();
    expect(asked).toEqual([]);
    expect(await unknownCommandError("/deploy now", known, noPaths)).toBeUndefined();
    expect(asked).toEqual(["/deploy"]);
  });

  test("an unknown name is a usage error with the closest name", async () => {
    const error = await unknownCommandError("/deplyo prod", source({ known: false, names: ["deploy"] }), noPaths);
    expect({ code: error?.code, message: error?.message }).toEqual({ code: "usage", message: "error: unknown command /deplyo\nDid you mean /deploy?" });
  });
});
