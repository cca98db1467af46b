/**
 * A session's checkpoints: one shadow repository per working directory under the project's state
 * folder — `~/.clew/projects/<project>/checkpoints.git` for the project, `checkpoints/<name>-<hash
 * of its real path>.git` beside it for each folder added with `--add-dir` or
 * `permissions.additionalDirectories` — shared by the project's sessions so a first snapshot is
 * paid once; one record file per session. The working directories are read before each prompt,
 * so a folder added during the session is checkpointed from the next prompt on. Nothing is created or run until the first prompt is
 * about to go out, so checkpoints cost a session no start-up time. `fileCheckpointingEnabled:
 * false` turns them off.
 */
import { basename, join } from "node:path";
import type { CheckpointRecord, SessionCheckpoints } from "../store/checkpoints/checkpoints.ts";
import type { ShadowRepo, ShadowRepoOptions } from "../store/checkpoints/shadow-repo.ts";

export interface CheckpointsInput {
  enabled: boolean;
  projectDir: string;
  /** `projectStateDir(configDir, projectDir)`. */
  stateDir: string;
  sessionId: string;
  path: string;
  /** Each directory's snapshot limits (see ShadowRepoOptions); the defaults otherwise. */
  limits?: Pick<ShadowRepoOptions, "maxFileBytes" | "maxNewFiles">;
  /** The working directories besides the project, as they are now (read before each prompt). */
  workingDirs?: () => readonly string[];
  /** `checkpointsPerSession`: how many a session keeps (newest first), default 100. */
  keep?: number;
  report: (line: string) => void;
}

/** What a turn did that could change files, as its loop saw it (see turn-snapshot.ts). */
export interface TurnActivity {
  /** A tool that may change files ran, a hook fired, or a command's `!` lines or UserPromptSubmit hooks ran. */
  wrote: boolean;
  /** Something that may go on changing files after it returns ran or is configured: a shell, a helper, an MCP tool, a hook. */
  lingers: boolean;
  /**
   * The files the tools that write and leave nothing running (Edit, Write, NotebookEdit) were
   * called on, as absolute paths; undefined once such a call named its file otherwise.
   */
  written?: string[];
}

/** The prompts of a session, checkpointed before each and after each turn; never throws. */
export interface CheckpointPort {
  /**
   * The snapshot before the session's next prompt; that prompt's number, undefined when
   * checkpoints are off. `captured` is called once the files have been read: from then on they
   * may change (the snapshot's trees are still being written). Its record is written by the
   * `describe` or `discard` that follows (a process killed before loses this prompt's checkpoint).
   */
  startPrompt(captured?: () => void): Promise<number | undefined>;
  beforePrompt(prompt: number): Promise<void>;
  /** The prompt went out: its text and its place in the transcript. */
  describe(prompt: number, details: Pick<CheckpointRecord, "text" | "leaf" | "uuid" | "messageId">): Promise<void>;
  /** The prompt never went out (a hook blocked it). */
  discard(prompt: number): Promise<void>;
  /**
   * The turn ended. With its `activity`, a turn that only read — in a session where nothing that
   * may still be running was ever started — is recorded as leaving the files as they were, with
   * no git; one whose only changes were made by Edit, Write or NotebookEdit records just their files.
   */
  afterTurn(prompt: number, activity?: TurnActivity): Promise<void>;
  /** Loaded on first use (rewind, the list of prompts). */
  load(): Promise<SessionCheckpoints>;
  /** Resolves once every snapshot asked for so far is taken (they run one at a time, in order), tracked work included. */
  settled(): Promise<void>;
  /** Work that will ask for snapshots once something else is done (a turn's end behind its record): `settled()` waits for it too. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Why checkpoints stopped in this session, once one failed. */
  readonly failure: string | undefined;
}

/** Kept trees of ended sessions written behind each prompt's record: a `-p` run leaves two (its prompt's start and end). */
const LEFTOVERS_PER_PROMPT = 2;

export function sessionCheckpoints(input: CheckpointsInput): CheckpointPort | undefined {
  if (!input.enabled) return undefined;
  let loading: Promise<SessionCheckpoints> | undefined;
  // Once something that may outlive its turn ran (a background shell, a helper, a hook), a turn
  // that only read may still end with files changed: from then on every turn's end is snapshot.
  let lingering = false;
  let failure: string | undefined;
  const load = (): Promise<SessionCheckpoints> => {
    loading ??= (async () => {
      const [{ ShadowRepo }, { SessionCheckpoints }, { WorkTrees, PROJECT_ROOT, nestedExclusions }] = await Promise.all([import("../store/checkpoints/shadow-repo.ts"), import("../store/checkpoints/checkpoints.ts"), import("../store/checkpoints/work-trees.ts")]);
      const open = (root: string): ShadowRepo =>
        root === PROJECT_ROOT
          ? new ShadowRepo({ ...input.limits, workTree: input.projectDir, gitDir: join(input.stateDir, "checkpoints.git"), path: input.path })
          : new ShadowRepo({ ...input.limits, workTree: root, gitDir: join(input.stateDir, "checkpoints", shadowName(root)), path: input.path, exclude: nestedExclusions(root, [input.projectDir, input.stateDir]) });
      const checkpoints = new SessionCheckpoints(new WorkTrees(open), join(input.stateDir, input.sessionId, "checkpoints.json"), input.keep);
      // A resumed session: what its earlier processes started may still be running.
      if (checkpoints.list().length > 0) lingering = true;
      return checkpoints;
    })();
    return loading;
  };
  // A checkpoint that cannot be taken (no git, a read-only state folder) is said once; the session goes on.
  // One git at a time on the shadow index: the end of a turn may still be recording when the next prompt comes.
  let queue: Promise<unknown> = Promise.resolve();
  const guarded = <T>(work: (checkpoints: SessionCheckpoints) => Promise<T> | T): Promise<T | undefined> => {
    const run = queue.then(async () => {
      if (failure !== undefined) return undefined;
      try {
        return await work(await load());
      } catch (error) {
        failure = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
        input.report(`clew: checkpoints are off for this session: ${failure} (rewind will not be able to restore files).`);
        return undefined;
      }
    });
    queue = run;
    return run;
  };
  const tracked = new Set<Promise<unknown>>();
  // An added folder that cannot be snapshot (too many files, unreadable) is said once and left out; the others go on.
  const leftOut = new Set<string>();
  const snapshot = async (checkpoints: SessionCheckpoints, prompt: number, captured?: () => void, save = true): Promise<number> => {
    const { outsideRoots } = await import("../store/checkpoints/work-trees.ts");
    const roots = outsideRoots(input.projectDir, input.workingDirs?.() ?? []).filter((root) => !leftOut.has(root));
    const { record, failures } = await checkpoints.beforePrompt(prompt, { roots, ...(captured ? { captured } : {}), save });
    if (record.skipped) input.report(`clew: not checkpointed (over the size limit): ${record.skipped.join(", ")}`);
    for (const [root, reason] of failures) {
      leftOut.add(root);
      input.report(`clew: ${root} is not checkpointed in this session: ${reason} (rewind will not restore its files).`);
    }
    return prompt;
  };
  return {
    // The record is written once, with the prompt's description, or dropped with it (discard).
    startPrompt: (captured) => guarded((checkpoints) => snapshot(checkpoints, checkpoints.nextPrompt(), captured, false)),
    beforePrompt: async (prompt) => {
      await guarded((checkpoints) => snapshot(checkpoints, prompt));
    },
    describe: async (prompt, details) => {
      await guarded((checkpoints) => checkpoints.describe(prompt, details));
      // The earlier prompts' trees, kept as indexes to spare their turns a git process, are written behind this one's record.
      void guarded((checkpoints) => checkpoints.resolveKept(prompt));
      // And a few that ended sessions left unwritten (the previous `-p` runs' in this project), so their copies do not pile up.
      void guarded((checkpoints) => checkpoints.writeLeftovers(LEFTOVERS_PER_PROMPT));
    },
    discard: async (prompt) => {
      await guarded((checkpoints) => checkpoints.discard(prompt));
    },
    afterTurn: async (prompt, activity) => {
      if (activity?.lingers) lingering = true;
      const onlyRead = activity !== undefined && !activity.wrote;
      // Without anything that may still be at work, only the files the tools named can have changed.
      const written = !lingering && activity?.written && activity.written.length > 0 ? { written: activity.written } : undefined;
      await guarded((checkpoints) => checkpoints.afterTurn(prompt, onlyRead && !lingering ? { unchanged: true } : (written ?? { likelyUnchanged: onlyRead })));
    },
    load,
    settled: async () => {
      // Tracked work may queue more as it goes: wait until nothing is left of either.
      for (let seen: Promise<unknown> | undefined; seen !== queue || tracked.size > 0; ) {
        seen = queue;
        await Promise.allSettled([queue, ...tracked]);
      }
    },
    track: (work) => {
      tracked.add(work);
      const untrack = () => tracked.delete(work);
      work.then(untrack, untrack);
      return work;
    },
    get failure() {
      return failure;
    },
  };
}

/** A shadow repository's folder name: the directory's name, readable, and a hash of its real path, unique. */
function shadowName(root: string): string {
  const name = basename(root).replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 40) || "root";
  return `${name}-${new Bun.CryptoHasher("sha256").update(root).digest("hex").slice(0, 16)}.git`;
}
