/** Consecutive items of an input, and the input index of the first. */
export interface Chunk<T> {
  start: number;
  items: T[];
}

/** Reads `source` in chunks of at most `size` items, one chunk at a time. */
export async function* chunksOf<T>(source: Iterable<T> | AsyncIterable<T>, size: number): AsyncGenerator<Chunk<T>, void, undefined> {
  let start = 0;
  let items: T[] = [];
  for await (const item of source) {
    items.push(item);
    if (items.length === size) {
      yield { start, items };
      start += size;
      items = [];
    }
  }
  if (items.length > 0) yield { start, items };
}

/**
 * Runs `work` on the items of `source` with at most `limit` at a time. The next item is read
 * only when a slot is free, so no more than `limit` items are held, whatever the size of the
 * input. Once `stopped()` is true no further item is read; running work is awaited and the
 * source closed. Resolves `true` when the source was read to its end.
 */
export async function forEachConcurrently<T>(source: AsyncIterator<T>, limit: number, work: (item: T) => Promise<void>, stopped: () => boolean): Promise<boolean> {
  const running = new Set<Promise<void>>();
  let exhausted = false;
  try {
    for (;;) {
      while (running.size >= limit) await Promise.race(running);
      if (stopped()) break;
      const next = await source.next();
      if (next.done === true) {
        exhausted = true;
        break;
      }
      const task: Promise<void> = work(next.value).finally(() => running.delete(task));
      running.add(task);
    }
  } finally {
    await Promise.allSettled(running);
    if (!exhausted) await source.return?.();
  }
  return exhausted;
}
