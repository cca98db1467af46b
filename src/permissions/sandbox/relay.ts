/**
 * Bytes from one socket to another with back-pressure: Bun's `write` may take only part of a
 * chunk, and what it leaves is written on `drain`. Chunks are copied, since Bun may reuse the
 * buffer a `data` callback was given.
 */
export interface ByteSink {
  write(data: Uint8Array): number;
  end(): void;
}

export class Relay {
  private pending: Uint8Array[] = [];
  private ending = false;

  constructor(private readonly sink: ByteSink) {}

  send(chunk: Uint8Array): void {
    if (this.pending.length > 0) {
      this.pending.push(chunk.slice());
      return;
    }
    const written = this.sink.write(chunk);
    if (written < chunk.length) this.pending.push(chunk.slice(Math.max(0, written)));
  }

  /** Call from the sink's `drain` handler. */
  drain(): void {
    while (this.pending.length > 0) {
      const chunk = this.pending[0] as Uint8Array;
      const written = this.sink.write(chunk);
      if (written < chunk.length) {
        this.pending[0] = chunk.subarray(Math.max(0, written));
        return;
      }
      this.pending.shift();
    }
    if (this.ending) this.sink.end();
  }

  /** Ends the sink once everything queued is written. */
  end(): void {
    this.ending = true;
    if (this.pending.length === 0) this.sink.end();
  }
}
