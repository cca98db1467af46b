/**
 * A counting semaphore for helpers: at most `limit` helper loops run at once in a session; the
 * rest wait their turn (an aborted waiter leaves the queue) instead of failing the Agent call.
 */
export class Slots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async hold<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.active >= Math.max(1, this.limit)) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener("abort", leave);
          resolve();
        };
        const leave = () => {
          const index = this.waiting.indexOf(go);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(new Error("aborted while waiting for a helper slot"));
        };
        this.waiting.push(go);
        signal.addEventListener("abort", leave, { once: true });
      });
    }
    this.active += 1;
    try {
      return await work();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
