// Which settings of a repository's own .git/config make git's read-only commands run a program.
import { describe, expect, test } from "bun:test";
import { programSetting } from "../../../src/permissions/git-config-risk.ts";

describe("programSetting", () => {
  test("the settings that run a program on a read are found, whatever the case and section syntax", () => {
    const cases: Array<[string, string | undefined]> = [
      ["[core]\n\trepositoryformatversion = 0\n\tbare = false\n", undefined],
      ["[core]\n\tfsmonitor = .git/hooks/query-watchman\n", "core.fsmonitor"],
      ["[Core]\n\tFSMonitor = ./run.sh\n", "core.fsmonitor"],
      ["[core]\n\tfsmonitor = true\n", undefined],
      ["[core]\n\tpager = sh -c 'cat .env'\n", "core.pager"],
      ["[pager]\n\tdiff = ./x\n", "pager.diff"],
      ['[diff "secret"]\n\ttextconv = ./show.sh\n', "diff.secret.textconv"],
      ["[diff]\n\texternal = ./d.sh\n", "diff.external"],
      ['[filter "x"]\n\tclean = ./c.sh\n', "filter.x.clean"],
      ['[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n', undefined],
      ['[filter "lfs"]\n\tclean = ./not-lfs.sh\n', "filter.lfs.clean"],
      ["[gpg]\n\tprogram = ./g.sh\n", "gpg.program"],
      ['[include]\n\tpath = ../shared.config\n', "include.path"],
      ['[includeIf "gitdir:~/w/"]\n\tpath = x\n', 'includeif.gitdir:~/w/.path'],
      ["[remote \"origin\"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n", undefined],
      ["# [core]\n; fsmonitor = x\n", undefined],
    ];
    expect(cases.map(([text]) => programSetting(text))).toEqual(cases.map(([, found]) => found));
  });
});
