/** One page read from an {@link OrderedCollection}. */
export interface CollectionPage<T> {
  items: T[];
  /** Cursor to pass as `after` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** Reason a cursor cannot be used: it was never issued by this collection. */
export class UnknownCursorError extends Error {
  constructor(readonly cursor: string) {
    super(`Unknown after cursor: ${cursor}`);
  }
}

/**
 * An insertion-ordered map whose pages cost O(page), whatever the size, so that a client can
 * walk 100,000+ objects at limit=200 in seconds.
 *
 * Entries live in arrays in insertion order; a map gives each id its slot. Deletion leaves a
 * hole (compacted once holes outnumber live entries) and keeps the id in the map, so a cursor
 * naming a deleted object still says where the next page starts. A cursor is the id of the last
 * object of a page, as Okta's own `after` values are for users and groups.
 */
export class OrderedCollection<T> {
  private ids: string[] = [];
  private values: Array<T | undefined> = [];
  /**
   * id -> slot. For a live id, its index. For a deleted one, the index of its hole, or after
   * compaction the index of the last entry before it (-1 if none): in every case, the next
   * page after that id starts at slot + 1.
   */
  private readonly slots = new Map<string, number>();
  private live = 0;
  private holes = 0;

  get size(): number {
    return this.live;
  }

  get(id: string): T | undefined {
    const index = this.liveIndex(id);
    return index === undefined ? undefined : this.values[index];
  }

  has(id: string): boolean {
    return this.liveIndex(id) !== undefined;
  }

  /**
   * Inserts at the end, or replaces in place (keeping the position) when the id exists.
   * Returns the value replaced, if any.
   */
  set(id: string, value: T): T | undefined {
    const index = this.liveIndex(id);
    if (index !== undefined) {
      const previous = this.values[index];
      this.values[index] = value;
      return previous;
    }
    this.slots.set(id, this.ids.length);
    this.ids.push(id);
    this.values.push(value);
    this.live++;
    return undefined;
  }

  /** Removes the id; returns the removed value. */
  delete(id: string): T | undefined {
    const index = this.liveIndex(id);
    if (index === undefined) return undefined;
    const value = this.values[index];
    this.values[index] = undefined;
    this.live--;
    this.holes++;
    if (this.holes > 1024 && this.holes > this.live) this.compact();
    return value;
  }

  *entries(): IterableIterator<[string, T]> {
    for (let i = 0; i < this.ids.length; i++) {
      const value = this.values[i];
      if (value !== undefined) yield [this.ids[i], value];
    }
  }

  *valuesInOrder(): IterableIterator<T> {
    for (const value of this.values) if (value !== undefined) yield value;
  }

  /**
   * Reads up to `limit` values after the cursor (from the start when `after` is absent) that
   * satisfy `accept`. Throws {@link UnknownCursorError} for a cursor this collection never issued.
   */
  page(after: string | undefined, limit: number, accept?: (value: T) => boolean): CollectionPage<T> {
    let i = 0;
    if (after !== undefined) {
      const slot = this.slots.get(after);
      if (slot === undefined) throw new UnknownCursorError(after);
      i = slot + 1;
    }
    const items: T[] = [];
    let lastId: string | undefined;
    for (; i < this.ids.length && items.length < limit; i++) {
      const value = this.values[i];
      if (value === undefined || (accept && !accept(value))) continue;
      items.push(value);
      lastId = this.ids[i];
    }
    return { items, nextCursor: lastId !== undefined && this.anyFrom(i, accept) ? lastId : undefined };
  }

  private liveIndex(id: string): number | undefined {
    const index = this.slots.get(id);
    return index !== undefined && this.values[index] !== undefined && this.ids[index] === id
      ? index
      : undefined;
  }

  private anyFrom(start: number, accept?: (value: T) => boolean): boolean {
    for (let i = start; i < this.ids.length; i++) {
      const value = this.values[i];
      if (value !== undefined && (!accept || accept(value))) return true;
    }
    return false;
  }

  private compact(): void {
    // liveBefore[i]: live entries in slots [0, i). Any slot s maps to liveBefore[s + 1] - 1.
    const liveBefore = new Int32Array(this.ids.length + 1);
    const ids: string[] = [];
    const values: T[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const value = this.values[i];
      liveBefore[i + 1] = liveBefore[i] + (value === undefined ? 0 : 1);
      if (value === undefined) continue;
      ids.push(this.ids[i]);
      values.push(value);
    }
    for (const [id, slot] of this.slots) this.slots.set(id, liveBefore[slot + 1] - 1);
    this.ids = ids;
    this.values = values;
    this.holes = 0;
  }
}
