/**
 * A session's checkpoints: the project's tree before each user prompt and after each turn,
 * recorded in `<session dir>/checkpoints.json` and kept reachable in the shadow repository under
 * `refs/clew/<session>`. Rewinding to prompt N puts back, path by path, what the turns from N on
 * changed; a path the user changed by hand between turns (after one turn ended, before the next
 * prompt) is kept as it is and reported, never overwritten.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomicSync } from "../../util/atomic-write.ts";
import type { ShadowRepo, TreeChange } from "./shadow-repo.ts";

export interface CheckpointRecord {
  /** The session's user prompts counted from 1. */
  prompt: number;
  /** The tree just before the prompt was sent. */
  before: string;
  /** The tree when that turn ended (absent when it never ended, e.g. the process was killed). */
  after?: string;
  at: string;
  /** Files left out of the `before` snapshot for their size. */
  skipped?: string[];
}

export interface RewindPlan {
  /** Paths put back as they were before the prompt (content and mode), or removed if they did not exist. */
  restore: TreeChange[];
  /** Paths changed by hand since then: left as they are. */
  kept: string[];
  target: CheckpointRecord;
}

const DEFAULT_KEEP = 100;

export class SessionCheckpoints {
  private records: CheckpointRecord[];

  constructor(
    private readonly repo: ShadowRepo,
    private readonly file: string,
    private readonly keep = DEFAULT_KEEP,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = readRecords(file);
  }

  list(): readonly CheckpointRecord[] {
    return this.records;
  }

  /** Before prompt `prompt` is sent: the tree as it is now. */
  async beforePrompt(prompt: number): Promise<CheckpointRecord> {
    const snapshot = await this.repo.snapshot();
    const record: CheckpointRecord = { prompt, before: snapshot.tree, at: this.now().toISOString(), ...(snapshot.skipped.length > 0 ? { skipped: snapshot.skipped } : {}) };
    this.records = [...this.records.filter((item) => item.prompt !== prompt), record].slice(-this.keep);
    this.save();
    return record;
  }

  /** When the turn of prompt `prompt` ended: what it left, so later hand edits can be told apart. */
  async afterTurn(prompt: number): Promise<void> {
    const record = this.records.find((item) => item.prompt === prompt);
    if (!record) return;
    record.after = (await this.repo.snapshot()).tree;
    this.save();
  }

  /** What rewinding to just before prompt `prompt` would do (nothing is changed). */
  async plan(prompt: number): Promise<RewindPlan | undefined> {
    const index = this.records.findIndex((item) => item.prompt === prompt);
    const target = this.records[index];
    if (!target) return undefined;
    const now = (await this.repo.snapshot()).tree;
    const changed = await this.repo.changes(target.before, now);
    const byHand = new Set<string>();
    // Between the end of one turn and the next prompt (or now) only the user was at work.
    for (let k = index; k < this.records.length; k++) {
      const ended = this.records[k]?.after;
      if (!ended) continue;
      const next = this.records[k + 1]?.before ?? now;
      for (const change of await this.repo.changes(ended, next)) byHand.add(change.path);
    }
    return { restore: changed.filter((change) => !byHand.has(change.path)), kept: changed.filter((change) => byHand.has(change.path)).map((change) => change.path), target };
  }

  /** Rewinds the files to just before prompt `prompt`; the checkpoints after it are dropped. */
  async rewind(prompt: number): Promise<RewindPlan | undefined> {
    const plan = await this.plan(prompt);
    if (!plan) return undefined;
    await this.repo.restore(plan.target.before, plan.restore.map((change) => change.path));
    this.records = this.records.filter((item) => item.prompt < prompt);
    this.save();
    return plan;
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, checkpoints: this.records }, null, 2)}\n`);
  }
}

function readRecords(file: string): CheckpointRecord[] {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { checkpoints?: unknown };
    return Array.isArray(stored.checkpoints) ? stored.checkpoints.filter(isRecord) : [];
  } catch {
    return [];
  }
}

function isRecord(value: unknown): value is CheckpointRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.prompt === "number" && typeof record.before === "string" && typeof record.at === "string";
}
