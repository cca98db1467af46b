/**
 * A session's checkpoints: the working directories' trees before each user prompt and after each
 * turn — one tree per directory (the project and each added folder, see work-trees.ts) —
 * recorded in `<session dir>/checkpoints.json`. Rewinding to prompt N puts back, path by path,
 * what the turns from N on changed; a path the user changed by hand between turns (after one turn
 * ended, before the next prompt) is kept as it is and reported, never overwritten.
 *
 * Format 2 keys each tree by its root; a format 1 file (one tree, the project's) still loads. A
 * tree a snapshot had to add files for is recorded as a kept index (`index:<id>`, see
 * kept-index.ts), one read in-process (a small work tree, a turn's end that only edited files)
 * as kept contents (`edits:<id>`, see file-edits.ts); either is written when something needs it:
 * a rewind, the list of prompts, or the session's next prompt, behind its record.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { isKept, KeptIndexLost } from "./kept-index.ts";
import { PROJECT_ROOT, type DirChange, type Trees, type WorkTrees } from "./work-trees.ts";

export interface CheckpointRecord {
  /** The session's user prompts counted from 1. */
  prompt: number;
  /** Each working directory's tree just before the prompt was sent (`.`: the project; others by real path). */
  before: Trees;
  /** The trees when that turn ended (absent when it never ended, e.g. the process was killed). */
  after?: Trees;
  at: string;
  /** Files left out of the `before` snapshot for their size, as the user reads them. */
  skipped?: string[];
  /** The prompt as the user typed it (its start), for the list `/rewind` shows. */
  text?: string;
  /**
   * Where the prompt sits in the transcript: the record it was chained onto (`null`: the first
   * of the conversation) and its own record. Absent when the session keeps no transcript.
   */
  leaf?: string | null;
  uuid?: string;
  /** The id a host gave the prompt's message (stream-json `uuid`), for `rewind_files`. */
  messageId?: string;
}

/** What one turn changed in the files: from just before its prompt to when it ended. */
export interface TurnChanges {
  files: number;
  added: number;
  removed: number;
}

export interface RewindPlan {
  /** Paths put back as they were before the prompt (content and mode), or removed if they did not exist. */
  restore: DirChange[];
  /** Paths changed by hand since then: left as they are (unless the user asks to restore them). */
  kept: string[];
  /** The same paths with how they differ from the checkpoint (`A`: created since, never deleted by a rewind). */
  handEdits: DirChange[];
  target: CheckpointRecord;
  /** The trees restored from: the target's, or for a folder added after it, the first one taken. */
  baseline: Trees;
}

const DEFAULT_KEEP = 100;

export class SessionCheckpoints {
  private records: CheckpointRecord[];

  constructor(
    private readonly trees: WorkTrees,
    private readonly file: string,
    private readonly keep = DEFAULT_KEEP,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = readRecords(file);
  }

  list(): readonly CheckpointRecord[] {
    return this.records;
  }

  /** The number the session's next prompt gets: one past the newest checkpoint (a rewind drops the later ones). */
  nextPrompt(): number {
    return (this.records[this.records.length - 1]?.prompt ?? 0) + 1;
  }

  find(prompt: number): CheckpointRecord | undefined {
    return this.records.find((item) => item.prompt === prompt);
  }

  /**
   * Before prompt `prompt` is sent: the project's tree and those of the added folders `roots`
   * (real paths) as they are now. An added folder that cannot be snapshot is left out and named.
   * `captured` is called once the files have been read (the trees are still being written).
   * `save: false` leaves the record to be written by what follows (`describe`, `discard`).
   */
  async beforePrompt(prompt: number, options: { roots?: readonly string[]; captured?: () => void; save?: boolean } = {}): Promise<{ record: CheckpointRecord; failures: Map<string, string> }> {
    // Since the previous turn's end (or session) only the user was at work, if anyone.
    const snapshot = await this.trees.snapshot(options.roots ?? [], { likelyUnchanged: true, keep: true, ...(options.captured ? { captured: options.captured } : {}) });
    const record: CheckpointRecord = { prompt, before: snapshot.trees, at: this.now().toISOString(), ...(snapshot.skipped.length > 0 ? { skipped: snapshot.skipped } : {}) };
    const previous = this.records;
    this.records = [...this.records.filter((item) => item.prompt !== prompt), record].slice(-this.keep);
    if (options.save !== false) {
      this.save();
      this.releaseDropped(previous);
    }
    return { record, failures: snapshot.failures };
  }

  /** Every root the records from `index` on hold. */
  private rootsFrom(index: number): string[] {
    return [...new Set(this.records.slice(index).flatMap((record) => Object.keys(record.before)))];
  }

  /** The trees as they are now, of the roots the records from `index` on hold. */
  private async current(index: number): Promise<Trees> {
    return (await this.trees.snapshot(this.rootsFrom(index).filter((root) => root !== PROJECT_ROOT), { likelyUnchanged: true })).trees;
  }

  /** What is known of the prompt once it is sent (its text, its place in the transcript). */
  describe(prompt: number, details: Pick<CheckpointRecord, "text" | "leaf" | "uuid" | "messageId">): void {
    const record = this.find(prompt);
    if (!record) return;
    Object.assign(record, details);
    this.save();
  }

  /** A prompt that was never sent (a hook blocked it): it is not one of the session's prompts. */
  discard(prompt: number): void {
    const previous = this.records;
    this.records = this.records.filter((item) => item.prompt !== prompt);
    // Written even when nothing was dropped: the snapshot before it may have left its record unwritten.
    this.save();
    this.releaseDropped(previous);
  }

  /**
   * The conversation went back to before prompt `prompt` but the files stay as they are: the
   * checkpoints from it on are dropped, and what their turns did counts as the previous turn's
   * work (not as changes by hand), so a later rewind further back still undoes it.
   */
  async forget(prompt: number): Promise<void> {
    if (!this.records.some((item) => item.prompt >= prompt)) return;
    // The trees first: a turn's end kept as edits needs its prompt's tree, whose record goes now.
    await this.resolveKept();
    const dropped = this.records.filter((item) => item.prompt >= prompt);
    if (dropped.length === 0) return;
    const all = this.records;
    this.records = this.records.filter((item) => item.prompt < prompt);
    const previous = this.records[this.records.length - 1];
    if (previous) {
      const last = dropped[dropped.length - 1]?.after;
      if (last) previous.after = last;
      else delete previous.after;
    }
    this.save();
    this.releaseDropped(all);
  }

  /** Lines added and removed, and files touched, by each turn (prompt → changes). */
  async turnChanges(): Promise<Map<number, TurnChanges>> {
    await this.resolveKept();
    const out = new Map<number, TurnChanges>();
    let now: Trees | undefined;
    for (let k = 0; k < this.records.length; k++) {
      const record = this.records[k] as CheckpointRecord;
      let end = record.after ?? this.records[k + 1]?.before;
      if (end === undefined) end = now ??= await this.current(k);
      const stats = await this.trees.lineChanges(record.before, end);
      out.set(record.prompt, { files: stats.length, added: stats.reduce((sum, item) => sum + item.added, 0), removed: stats.reduce((sum, item) => sum + item.removed, 0) });
    }
    return out;
  }

  /**
   * When the turn of prompt `prompt` ended: what it left, so later hand edits can be told apart.
   * `unchanged`: nothing but the user could have changed a file since the prompt's snapshot (the
   * turn only read), so the turn left the files as they were then, and no git runs.
   * `written`: the turn changed only these files (absolute paths), with tools that leave nothing
   * running, so the rest is as the prompt's snapshot found it: no listing of the folders.
   * `likelyUnchanged`: the turn itself changed nothing, but something it cannot see might have.
   */
  async afterTurn(prompt: number, turn: { unchanged?: boolean; written?: readonly string[]; likelyUnchanged?: boolean } = {}): Promise<void> {
    const record = this.records.find((item) => item.prompt === prompt);
    if (!record) return;
    if (turn.unchanged) record.after = { ...record.before };
    else if (turn.written) record.after = await this.trees.snapshotWritten(record.before, turn.written, true);
    else record.after = (await this.trees.snapshot(Object.keys(record.before), { likelyUnchanged: turn.likelyUnchanged === true, keep: true })).trees;
    this.save();
  }

  /** What rewinding to just before prompt `prompt` would do (nothing is changed). */
  async plan(prompt: number): Promise<RewindPlan | undefined> {
    await this.resolveKept();
    const index = this.records.findIndex((item) => item.prompt === prompt);
    const target = this.records[index];
    if (!target) return undefined;
    const now = await this.current(index);
    // A folder added after the target prompt goes back to when it was first checkpointed.
    const baseline: Trees = {};
    for (const record of this.records.slice(index)) for (const [root, tree] of Object.entries(record.before)) baseline[root] ??= tree;
    const changed = await this.trees.changes(baseline, now);
    const byHand = new Set<string>();
    // Between the end of one turn and the next prompt (or now) only the user was at work.
    for (let k = index; k < this.records.length; k++) {
      const ended = this.records[k]?.after;
      if (!ended) continue;
      const next = this.records[k + 1]?.before ?? now;
      for (const change of await this.trees.changes(ended, next)) byHand.add(change.path);
    }
    const kept = changed.filter((change) => byHand.has(change.path));
    return { restore: changed.filter((change) => !byHand.has(change.path)), kept: kept.map((change) => change.path), handEdits: kept, target, baseline };
  }

  /**
   * Rewinds the files to just before prompt `prompt`; the checkpoints from it on are dropped.
   * With `overwriteHandEdits` the files changed by hand are put back too — except a file created
   * since the checkpoint, which is never deleted: only the agent's own new files are.
   */
  async rewind(prompt: number, options: { overwriteHandEdits?: boolean } = {}): Promise<RewindPlan | undefined> {
    const found = await this.plan(prompt);
    if (!found) return undefined;
    const overwritten = options.overwriteHandEdits ? found.handEdits.filter((change) => change.status !== "A") : [];
    const handEdits = found.handEdits.filter((change) => !overwritten.includes(change));
    const plan: RewindPlan = { ...found, restore: [...found.restore, ...overwritten], kept: handEdits.map((change) => change.path), handEdits };
    await this.trees.restore(plan.baseline, plan.restore);
    this.records = this.records.filter((item) => item.prompt < prompt);
    this.save();
    return plan;
  }

  /**
   * Every kept index the records name (see kept-index.ts) replaced by its tree, and the records
   * written; the trees of prompt `except` (the one being asked now) can wait. A kept index removed
   * by hand loses what it held: a lost `before` leaves that folder out of the checkpoint (the whole
   * checkpoint for the project's), a lost `after` counts the turn as having changed nothing, so
   * what changed since is kept by a rewind, never overwritten.
   */
  async resolveKept(except?: number): Promise<void> {
    const chosen = this.records.filter((record) => record.prompt !== except);
    const keys = [...new Set(chosen.flatMap((record) => keptOf(record)))];
    if (keys.length === 0) return;
    // Side by side: each has an index of its own.
    const trees = await Promise.all(
      keys.map((key) => {
        const [root = PROJECT_ROOT, kept = ""] = key.split("\0");
        return this.trees.repo(root).resolve(kept).catch((error: unknown) => {
          if (error instanceof KeptIndexLost) return undefined;
          throw error;
        });
      }),
    );
    const found = new Map(keys.map((key, index) => [key, trees[index]]));
    const resolve = (trees: Trees, root: string, lost: string | undefined) => {
      const tree = trees[root] ?? "";
      if (!isKept(tree)) return;
      const resolved = found.get(`${root}\0${tree}`) ?? lost;
      if (resolved !== undefined) trees[root] = resolved;
      else delete trees[root];
    };
    const records = this.records.filter((record) => {
      if (!chosen.includes(record)) return true;
      for (const root of Object.keys(record.before)) resolve(record.before, root, undefined);
      if (record.after) for (const root of Object.keys(record.after)) resolve(record.after, root, record.before[root]);
      return record.before[PROJECT_ROOT] !== undefined;
    });
    const previous = this.records;
    this.records = records;
    this.save();
    this.releaseDropped(previous);
    // Written into the records now: the notes beside the copies are no longer needed.
    const named = new Set(this.records.flatMap((record) => keptOf(record)));
    for (const key of found.keys()) {
      const [root = PROJECT_ROOT, kept = ""] = key.split("\0");
      if (!named.has(key)) this.trees.repo(root).release(kept);
    }
  }

  /**
   * Up to `most` kept trees that sessions ended with unwritten (a `-p` run's, which nothing
   * needed) have their trees written, so their copies of the files do not pile up: each becomes
   * the tree's id, noted where its session will find it. Never this session's own, never one
   * touched in the last `quietMs`; one whose base is gone is removed (no session can read it
   * either), one git fails on is left as it is.
   */
  async writeLeftovers(most: number, quietMs = 10 * 60_000): Promise<void> {
    const mine = new Set(this.records.flatMap((record) => keptOf(record)));
    const before = this.now().getTime() - quietMs;
    let left = most;
    for (const root of this.rootsFrom(0)) {
      const repo = this.trees.repo(root);
      for (const kept of repo.leftovers(before)) {
        if (left <= 0) return;
        if (mine.has(`${root}\0${kept}`)) continue;
        left--;
        await repo.resolve(kept).catch((error: unknown) => {
          // Its base is gone (its session dropped that prompt): it can never be written, nor read.
          if (error instanceof KeptIndexLost) repo.release(kept);
        });
      }
    }
  }

  /** The kept indexes of records that are gone (`previous` held them), which no record names any more. */
  private releaseDropped(previous: readonly CheckpointRecord[]): void {
    const named = new Set(this.records.flatMap((record) => keptOf(record)));
    for (const record of previous) for (const key of keptOf(record)) {
      if (named.has(key)) continue;
      const [root = PROJECT_ROOT, kept = ""] = key.split("\0");
      this.trees.repo(root).release(kept);
    }
  }

  /**
   * Whole or not at all (a temporary file renamed over it), but not flushed to the disk: a process
   * killed loses nothing of it either way, and what it names — kept files, the shadow repository's
   * objects (git writes them unflushed) — would not outlive a power cut either; on a slow disk the
   * flush costs milliseconds, twice a turn.
   */
  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 2, checkpoints: this.records }, null, 2)}\n`);
    renameSync(temp, this.file);
  }
}

/** The kept indexes a record names, as `root\0kept`. */
function keptOf(record: CheckpointRecord): string[] {
  return [record.before, record.after ?? {}].flatMap((trees) => Object.entries(trees).flatMap(([root, tree]) => (isKept(tree) ? [`${root}\0${tree}`] : [])));
}

function readRecords(file: string): CheckpointRecord[] {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { checkpoints?: unknown };
    return Array.isArray(stored.checkpoints) ? stored.checkpoints.flatMap((item) => toRecord(item) ?? []) : [];
  } catch {
    return [];
  }
}

function isTrees(value: unknown): value is Trees {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((tree) => typeof tree === "string");
}

/** A stored record; format 1's single tree (a string) was the project's. */
function toRecord(value: unknown): CheckpointRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.prompt !== "number" || typeof record.at !== "string") return undefined;
  const trees = (field: unknown): Trees | undefined => (typeof field === "string" ? { [PROJECT_ROOT]: field } : isTrees(field) ? field : undefined);
  const before = trees(record.before);
  if (!before || before[PROJECT_ROOT] === undefined) return undefined;
  const after = trees(record.after);
  const stored = { ...record, before } as unknown as CheckpointRecord;
  if (after) stored.after = after;
  else delete stored.after;
  return stored;
}
