/**
 * A session's checkpoints: one shadow repository per project under the project's state folder
 * (`~/.clew/projects/<project>/checkpoints.git`, shared by its sessions so the first snapshot is
 * paid once), one record file per session. Nothing is created or run until the first prompt is
 * about to go out, so checkpoints cost a session no start-up time. `fileCheckpointingEnabled:
 * false` turns them off.
 */
import { join } from "node:path";
import type { SessionCheckpoints } from "../store/checkpoints/checkpoints.ts";

export interface CheckpointsInput {
  enabled: boolean;
  projectDir: string;
  /** `projectStateDir(configDir, projectDir)`. */
  stateDir: string;
  sessionId: string;
  path: string;
  report: (line: string) => void;
}

/** The prompts of a session, checkpointed before each and after each turn; never throws. */
export interface CheckpointPort {
  beforePrompt(prompt: number): Promise<void>;
  afterTurn(prompt: number): Promise<void>;
  /** Loaded on first use (rewind, the list of prompts). */
  load(): Promise<SessionCheckpoints>;
}

export function sessionCheckpoints(input: CheckpointsInput): CheckpointPort | undefined {
  if (!input.enabled) return undefined;
  let loading: Promise<SessionCheckpoints> | undefined;
  let failed = false;
  const load = (): Promise<SessionCheckpoints> => {
    loading ??= (async () => {
      const [{ ShadowRepo }, { SessionCheckpoints }] = await Promise.all([import("../store/checkpoints/shadow-repo.ts"), import("../store/checkpoints/checkpoints.ts")]);
      const repo = new ShadowRepo({ workTree: input.projectDir, gitDir: join(input.stateDir, "checkpoints.git"), path: input.path });
      return new SessionCheckpoints(repo, join(input.stateDir, input.sessionId, "checkpoints.json"));
    })();
    return loading;
  };
  // A checkpoint that cannot be taken (no git, a read-only state folder) is said once; the session goes on.
  const guarded = async (work: (checkpoints: SessionCheckpoints) => Promise<unknown>): Promise<void> => {
    if (failed) return;
    try {
      await work(await load());
    } catch (error) {
      failed = true;
      input.report(`clew: checkpoints are off for this session: ${error instanceof Error ? error.message.split("\n")[0] : String(error)} (rewind will not be able to restore files).`);
    }
  };
  return {
    beforePrompt: (prompt) =>
      guarded(async (checkpoints) => {
        const record = await checkpoints.beforePrompt(prompt);
        if (record.skipped) input.report(`clew: not checkpointed (over the size limit): ${record.skipped.join(", ")}`);
      }),
    afterTurn: (prompt) => guarded((checkpoints) => checkpoints.afterTurn(prompt)),
    load,
  };
}
