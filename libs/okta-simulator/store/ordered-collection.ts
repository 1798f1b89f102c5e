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
 * Each id gets a monotonically increasing sequence number when first inserted; entries live in
 * arrays sorted by that number, deletions leave holes that are compacted once they outnumber
 * the live entries. A cursor is the id of the last object of a page, as Okta's own `after`
 * values are for users and groups; its sequence number is remembered after deletion, so a
 * cursor stays valid when the object it names is deleted between two pages.
 */
export class OrderedCollection<T> {
  private ids: string[] = [];
  private seqs: number[] = [];
  private values: Array<T | undefined> = [];
  private readonly indexById = new Map<string, number>();
  /** Sequence numbers of every id ever inserted (deleted ones included), to resolve cursors. */
  private readonly seqById = new Map<string, number>();
  private nextSeq = 1;
  private holes = 0;

  get size(): number {
    return this.indexById.size;
  }

  get(id: string): T | undefined {
    const index = this.indexById.get(id);
    return index === undefined ? undefined : this.values[index];
  }

  has(id: string): boolean {
    return this.indexById.has(id);
  }

  /** Inserts at the end, or replaces in place (keeping the position) when the id exists. */
  set(id: string, value: T): void {
    const index = this.indexById.get(id);
    if (index !== undefined) {
      this.values[index] = value;
      return;
    }
    const seq = this.nextSeq++;
    this.indexById.set(id, this.ids.length);
    this.seqById.set(id, seq);
    this.ids.push(id);
    this.seqs.push(seq);
    this.values.push(value);
  }

  /** Removes the id; returns the removed value. */
  delete(id: string): T | undefined {
    const index = this.indexById.get(id);
    if (index === undefined) return undefined;
    const value = this.values[index];
    this.values[index] = undefined;
    this.indexById.delete(id);
    this.holes++;
    if (this.holes > 1024 && this.holes > this.indexById.size) this.compact();
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
    let i = after === undefined ? 0 : this.positionAfter(after);
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

  private anyFrom(start: number, accept?: (value: T) => boolean): boolean {
    for (let i = start; i < this.ids.length; i++) {
      const value = this.values[i];
      if (value !== undefined && (!accept || accept(value))) return true;
    }
    return false;
  }

  /** First array position whose sequence number is greater than the cursor's (binary search). */
  private positionAfter(cursor: string): number {
    const seq = this.seqById.get(cursor);
    if (seq === undefined) throw new UnknownCursorError(cursor);
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqs[mid] <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private compact(): void {
    const ids: string[] = [];
    const seqs: number[] = [];
    const values: T[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const value = this.values[i];
      if (value === undefined) continue;
      this.indexById.set(this.ids[i], ids.length);
      ids.push(this.ids[i]);
      seqs.push(this.seqs[i]);
      values.push(value);
    }
    this.ids = ids;
    this.seqs = seqs;
    this.values = values;
    this.holes = 0;
  }
}
