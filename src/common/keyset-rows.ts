/**
 * Records of some of a team's connections over a period, bounds included (the audit pack, docs/export.md).
 */
export interface PeriodFilter {
  from: Date;
  to: Date;
  /** never empty: the caller resolves "all the team's" to their ids */
  connectionIds: string[];
}

/**
 * Every row a keyset-paged query returns, one page in memory at a time: `page(after)` gives the
 * rows after `after` (the last row of the previous page; undefined for the first) in the query's
 * total order, at most `size` of them; a shorter page is the last.
 * @param size rows per page, > 0
 */
export async function* keysetRows<R>(
  page: (after: R | undefined) => Promise<R[]>,
  size: number,
): AsyncGenerator<R> {
  let after: R | undefined;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < size) return;
    after = rows.at(-1);
  }
}
