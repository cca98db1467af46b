/**
 * Remembers which files the model has seen and in what state, so Write and Edit can refuse to
 * overwrite a file the model never read or that changed on disk after it was read.
 */
export interface FileSnapshot {
  mtimeMs: number;
  size: number;
}

export class FileTracker {
  private readonly seen = new Map<string, FileSnapshot>();

  /** Record the on-disk state the model now knows (after a Read, or after clew wrote the file). */
  remember(absPath: string, snapshot: FileSnapshot): void {
    // Re-inserting keeps the map in order of last use, for "recently worked on" lists.
    this.seen.delete(absPath);
    this.seen.set(absPath, { mtimeMs: snapshot.mtimeMs, size: snapshot.size });
  }

  lastSeen(absPath: string): FileSnapshot | undefined {
    return this.seen.get(absPath);
  }

  /** Known files, least recently read or written first. */
  paths(): string[] {
    return [...this.seen.keys()];
  }

  entries(): [string, FileSnapshot][] {
    return [...this.seen.entries()];
  }
}
