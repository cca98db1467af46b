/** An unbounded queue one consumer awaits: items pushed while nobody waits are kept in order. */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private readonly waiters: Array<(item: IteratorResult<T>) => void> = [];
  private ended = false;

  push(item: T): void {
    if (this.ended) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter({ value: item, done: false });
    else this.items.push(item);
  }

  /** No more items: the consumer drains what is queued, then sees the end. */
  end(): void {
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) waiter({ value: undefined, done: true });
  }

  /** What is queued, in order, without taking it. */
  peek(): readonly T[] {
    return this.items;
  }

  /** Takes everything queued now. */
  takeAll(): T[] {
    return this.items.splice(0);
  }

  get size(): number {
    return this.items.length;
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const result = await this.next();
      if (result.done) return;
      yield result.value;
    }
  }
}
