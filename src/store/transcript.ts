/**
 * Append-only JSONL transcripts. Every record is written with one synchronous write the moment
 * it happens, so a process killed at any point leaves a file that parses up to its last line.
 * Conversation records use Claude Code's envelope (uuid, parentUuid, sessionId, …) so tools that
 * read Claude Code transcripts can read clew's.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export const TRANSCRIPT_VERSION = 1;

export interface SessionHeader {
  type: "clew-session";
  version: number;
  sessionId: string;
  cwd: string;
  model: string;
  clewVersion: string;
  timestamp: string;
}

/** One parsed line. Unknown record types are kept (and ignored by readers that don't know them). */
export type TranscriptRecord = { type: string; uuid?: string; parentUuid?: string | null } & Record<string, unknown>;

export interface WriterIdentity {
  sessionId: string;
  cwd: string;
  version: string;
  gitBranch: string;
}

export class TranscriptWriter {
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    private readonly identity: WriterIdentity,
    private lastUuid: string | null,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // 0600: transcripts hold source code and command output.
    this.fd = openSync(path, "a", 0o600);
  }

  static create(path: string, identity: WriterIdentity, model: string, now: Date): TranscriptWriter {
    const writer = new TranscriptWriter(path, identity, null);
    const header: SessionHeader = {
      type: "clew-session",
      version: TRANSCRIPT_VERSION,
      sessionId: identity.sessionId,
      cwd: identity.cwd,
      model,
      clewVersion: identity.version,
      timestamp: now.toISOString(),
    };
    writer.writeLine(header);
    return writer;
  }

  /** Continue an existing file; new records chain onto `lastUuid`. */
  static append(path: string, identity: WriterIdentity, lastUuid: string | null): TranscriptWriter {
    return new TranscriptWriter(path, identity, lastUuid);
  }

  /** Writes a conversation record (user, assistant, system) chained to the previous one. */
  appendChained(record: { type: string } & Record<string, unknown>, now: Date): string {
    const uuid = crypto.randomUUID();
    this.writeLine({
      parentUuid: this.lastUuid,
      isSidechain: false,
      userType: "external",
      cwd: this.identity.cwd,
      sessionId: this.identity.sessionId,
      version: this.identity.version,
      gitBranch: this.identity.gitBranch,
      ...record,
      uuid,
      timestamp: now.toISOString(),
    });
    this.lastUuid = uuid;
    return uuid;
  }

  /**
   * Starts a new chain at a compaction boundary: the boundary has no parent (the model's context
   * starts here) and points to the last record before it through `logicalParentUuid`.
   */
  appendBoundary(record: { type: string } & Record<string, unknown>, now: Date): string {
    const logicalParentUuid = this.lastUuid;
    this.lastUuid = null;
    return this.appendChained({ ...record, logicalParentUuid }, now);
  }

  /** Writes a record outside the conversation chain (cost state, notices). */
  appendMeta(record: { type: string } & Record<string, unknown>): void {
    this.writeLine({ ...record, sessionId: this.identity.sessionId });
  }

  get leafUuid(): string | null {
    return this.lastUuid;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private writeLine(value: unknown): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
  }
}

export interface ParsedTranscript {
  header: SessionHeader | undefined;
  records: TranscriptRecord[];
  /** Lines that did not parse (normally only a last line cut by a crash). */
  skippedLines: number;
}

export function readTranscript(path: string): ParsedTranscript {
  const records: TranscriptRecord[] = [];
  let header: SessionHeader | undefined;
  let skippedLines = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skippedLines += 1;
      continue;
    }
    if (!value || typeof value !== "object" || typeof (value as { type?: unknown }).type !== "string") {
      skippedLines += 1;
      continue;
    }
    const record = value as TranscriptRecord;
    if (record.type === "clew-session") header ??= record as unknown as SessionHeader;
    else records.push(record);
  }
  return { header, records, skippedLines };
}
