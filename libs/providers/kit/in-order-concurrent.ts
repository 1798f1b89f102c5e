/**
 * Runs up to `width` async iterators at once, one per key, and yields their values in key
 * order: all of the first key's values, then the second's... Each iterator waiting its turn
 * has at most one value fetched ahead, so memory stays at `width` values (pages) however long
 * each list is, while up to `width` requests are in flight.
 *
 * Used to list children of many parents (members of each group) concurrently yet stream them
 * in a stable order. A failure of any iterator is thrown when its turn comes; on early exit
 * (consumer stops, error) every open iterator is closed.
 */
export async function* inOrderConcurrent<K, T>(
  keys: Iterable<K>,
  open: (key: K) => AsyncIterator<T>,
  width: number,
): AsyncGenerator<T> {
  const pending = keys[Symbol.iterator]();
  const lanes: Array<{ iterator: AsyncIterator<T>; next: Promise<IteratorResult<T>> }> = [];
  const fill = (): void => {
    while (lanes.length < Math.max(1, width)) {
      const key = pending.next();
      if (key.done) return;
      const iterator = open(key.value);
      const next = iterator.next();
      // Settled later, when the lane's turn comes; until then a rejection is not "unhandled".
      next.catch(() => undefined);
      lanes.push({ iterator, next });
    }
  };
  try {
    fill();
    while (lanes.length > 0) {
      const head = lanes[0];
      const result = await head.next;
      if (result.done) {
        lanes.shift();
        fill();
        continue;
      }
      head.next = head.iterator.next();
      head.next.catch(() => undefined);
      yield result.value;
    }
  } finally {
    await Promise.allSettled(lanes.map((lane) => lane.iterator.return?.()));
  }
}
