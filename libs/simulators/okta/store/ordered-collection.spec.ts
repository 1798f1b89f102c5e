import { describe, expect, it } from '@jest/globals';

import { OrderedCollection, UnknownCursorError } from './ordered-collection.js';

function filled(count: number): OrderedCollection<number> {
  const sut = new OrderedCollection<number>();
  for (let i = 0; i < count; i++) sut.set(`id${i}`, i);
  return sut;
}

function walk(sut: OrderedCollection<number>, limit: number, accept?: (n: number) => boolean): number[] {
  const seen: number[] = [];
  let after: string | undefined;
  do {
    const page = sut.page(after, limit, accept);
    seen.push(...page.items);
    after = page.nextCursor;
  } while (after !== undefined);
  return seen;
}

describe('OrderedCollection', () => {
  it('pages through every value once, in insertion order, with no cursor after the last page', () => {
    const sut = filled(1001);
    expect(walk(sut, 200)).toEqual(Array.from({ length: 1001 }, (_, i) => i));
    expect(sut.page(undefined, 1001).nextCursor).toBeUndefined();
  });

  it('gives no next cursor when the rest of the collection does not match', () => {
    const sut = filled(10);
    const page = sut.page(undefined, 2, (n) => n < 2);
    expect(page.items).toEqual([0, 1]);
    expect(page.nextCursor).toBeUndefined();
  });

  it('keeps a cursor valid when the object it names is deleted between pages', () => {
    const sut = filled(10);
    const first = sut.page(undefined, 3);
    sut.delete(first.nextCursor as string);
    expect(sut.page(first.nextCursor, 3).items).toEqual([3, 4, 5]);
  });

  it('keeps order and cursors across compaction of many deletions', () => {
    const sut = filled(5000);
    const first = sut.page(undefined, 10);
    for (let i = 0; i < 4000; i++) sut.delete(`id${i}`);
    expect(sut.size).toBe(1000);
    expect(sut.page(first.nextCursor, 2).items).toEqual([4000, 4001]);
    expect(walk(sut, 300)).toHaveLength(1000);
  });

  it('replaces in place without moving the value', () => {
    const sut = filled(3);
    sut.set('id0', 42);
    expect(walk(sut, 10)).toEqual([42, 1, 2]);
  });

  it('refuses a cursor it never issued', () => {
    expect(() => filled(3).page('nope', 1)).toThrow(UnknownCursorError);
  });
});
