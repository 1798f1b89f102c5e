import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PeriodFilter } from '@app/common/keyset-rows.js';

/** The last row of the previous page: its timestamp (the period's column) and id. */
export interface PeriodCursor {
  at: Date;
  id: string;
}

/**
 * Narrows `query` (a team-scoped table aliased `alias`, with `team_id`, `connection_id` and `id`
 * columns) to one keyset page of the period: rows of `filter.connectionIds` whose `column` is in
 * [from, to], ordered by (column, id), after `after`, at most `limit` (the audit pack, docs/export.md).
 */
export function periodPage<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  column: string,
  teamId: string,
  filter: PeriodFilter,
  after: PeriodCursor | undefined,
  limit: number,
): SelectQueryBuilder<T> {
  query
    .andWhere(`${alias}.team_id = :teamId AND ${alias}.${column} BETWEEN :from AND :to`, {
      teamId,
      from: filter.from,
      to: filter.to,
    })
    .andWhere(`${alias}.connection_id IN (:...connectionIds)`, { connectionIds: filter.connectionIds })
    .orderBy(`${alias}.${column}`, 'ASC')
    .addOrderBy(`${alias}.id`, 'ASC')
    .take(limit);
  if (after) query.andWhere(`(${alias}.${column}, ${alias}.id) > (:at, :id)`, { at: after.at, id: after.id });
  return query;
}
