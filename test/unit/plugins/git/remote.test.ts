import { describe, expect, test } from "bun:test";
import { describeGitError } from "../../../../src/plugins/git/remote.ts";

describe("describeGitError", () => {
  test("the progress lines of a step that is not run quiet are left out of what git said", () => {
    const stderr = [
      "Cloning into '.'...",
      "fatal: unable to access 'https://git.example.com/team/tools.git/': Could not resolve host: git.example.com",
    ].join("\n");
    const failure = describeGitError(new Error(stderr), "https://git.example.com/team/tools.git", "clone");
    expect({ code: failure.code, message: failure.message }).toEqual({
      code: "network",
      message: "Could not clone https://git.example.com/team/tools.git: git.example.com could not be reached; check the network or proxy settings and try again. (git said: fatal: unable to access 'https://git.example.com/team/tools.git/': Could not resolve host: git.example.com)",
    });
  });

  test("a fetch's From line and an init's greeting are left out too; the git error itself stays", () => {
    const stderr = ["Initialized empty Git repository in /tmp/x/.git/", "From file:///srv/repo.git", " * branch            main       -> FETCH_HEAD", "error: pathspec 'nope' did not match any file(s) known to git"].join("\n");
    const failure = describeGitError(new Error(stderr), "file:///srv/repo.git", "fetch main of");
    expect(failure.message).toBe("Could not fetch main of file:///srv/repo.git: error: pathspec 'nope' did not match any file(s) known to git");
  });
});
