/**
 * Splits one reply's tool calls into batches: a run of consecutive read-only calls is one
 * concurrent batch; every other call runs alone, in order. Results keep the calls' order.
 */
export function batchCalls<T>(calls: readonly T[], isReadOnly: (call: T) => boolean): T[][] {
  const batches: T[][] = [];
  for (const call of calls) {
    const last = batches[batches.length - 1];
    if (isReadOnly(call) && last && last.length > 0 && isReadOnly(last[0] as T)) last.push(call);
    else batches.push([call]);
  }
  return batches;
}

export async function runBatches<T, R>(
  batches: readonly T[][],
  run: (call: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (const batch of batches) {
    results.push(...(await Promise.all(batch.map(run))));
  }
  return results;
}
