import { z } from 'zod';
import { ValidationError } from '@app/common/errors.js';

/** Largest page any tool answers: a page must fit a model's context beside the conversation. */
export const MAX_TOOL_PAGE = 100;

/**
 * The paging arguments of a listing tool (MCP "Pagination" uses an opaque `cursor` and
 * `nextCursor`; tools follow the same convention): `cursor` from the previous answer, `limit`
 * items per page.
 * @param defaultLimit items per page when `limit` is absent
 */
export function pageArguments(defaultLimit: number) {
  return {
    cursor: z
      .string()
      .max(200)
      .optional()
      .describe('nextCursor of the previous answer, to read the next page; omit for the first page'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_TOOL_PAGE)
      .default(defaultLimit)
      .describe(`items per page, 1 to ${MAX_TOOL_PAGE}`),
  };
}

/** `nextCursor` in an answer: null on the last page. */
export const nextCursorField = z
  .string()
  .nullable()
  .describe('pass as `cursor` to read the next page; null on the last page');

/** An opaque cursor for the item at `offset`. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/**
 * The offset a cursor of encodeCursor names; 0 without one.
 * @throws ValidationError for a cursor this server did not give
 */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const offset = (parsed as { o?: unknown }).o;
    if (typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0) return offset;
  } catch {
    // answered below
  }
  throw new ValidationError('cursor is not a nextCursor this tool gave');
}

/**
 * One page of `items` and the cursor of the next.
 * @throws ValidationError for a bad cursor (decodeCursor)
 */
export function pageOf<T>(
  items: readonly T[],
  args: { cursor?: string; limit: number },
): { items: T[]; nextCursor: string | null } {
  const offset = decodeCursor(args.cursor);
  const end = offset + args.limit;
  return { items: items.slice(offset, end), nextCursor: end < items.length ? encodeCursor(end) : null };
}
