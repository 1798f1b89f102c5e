import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '@app/common/errors.js';
import { decodeCursor, encodeCursor, pageOf } from './paging.js';

describe('tool paging (opaque cursors, MCP "Pagination" convention)', () => {
  const items = Array.from({ length: 7 }, (_, index) => index);

  it('walks every item once, page by page, ending with a null cursor', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const sut = pageOf(items, { cursor, limit: 3 });
      seen.push(...sut.items);
      if (sut.nextCursor === null) break;
      cursor = sut.nextCursor;
    }
    expect(seen).toEqual(items);
  });

  it('gives no next page when the last page is exactly full', () => {
    expect(pageOf(items.slice(0, 6), { cursor: encodeCursor(3), limit: 3 }).nextCursor).toBeNull();
  });

  it('reads its own cursors back, and no cursor as the start', () => {
    expect([decodeCursor(undefined), decodeCursor(encodeCursor(42))]).toEqual([0, 42]);
  });

  it.each([
    ['not base64 JSON', 'garbage'],
    ['a negative offset', Buffer.from('{"o":-1}').toString('base64url')],
    ['a fractional offset', Buffer.from('{"o":1.5}').toString('base64url')],
    ['another shape', Buffer.from('[1]').toString('base64url')],
  ])('refuses %s with a validation error', (_case, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(ValidationError);
  });
});
