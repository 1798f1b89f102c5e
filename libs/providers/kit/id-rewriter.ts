import type { IdMap } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/** Rewrites a provider's object ids wherever they stand in a record (idRewriter). */
export interface IdRewriter {
  /** `text` with every id that `ids` maps replaced by its new id. */
  rewriteIds(text: string, ids: IdMap): string;
  /**
   * The record with every mapped id replaced, in its record id and anywhere in its data (keys
   * included: a policy's conditions may be keyed by id). The same object when nothing changed.
   */
  rewriteRecord(record: ResourceRecord, ids: IdMap): ResourceRecord;
  /** Every id in `data`, once each, in order of appearance. */
  referencedIds(data: unknown): string[];
}

/**
 * An IdRewriter for ids of the form `pattern` (global, anchored by lookarounds so that it does
 * not match inside a longer token). Random ids do not collide with other text in practice, so
 * replacing the ids an IdMap holds, wherever they appear (alone, in record ids
 * `<groupId>:<userId>`, in expressions and URNs), rewrites every reference without knowing each
 * field.
 */
export function idRewriter(pattern: RegExp): IdRewriter {
  const rewriteIds = (text: string, ids: IdMap): string =>
    ids.size === 0 ? text : text.replace(pattern, (id) => ids.get(id) ?? id);
  return {
    rewriteIds,
    rewriteRecord(record, ids) {
      if (ids.size === 0) return record;
      const text = JSON.stringify(record.data);
      const data = rewriteIds(text, ids);
      const id = rewriteIds(record.id, ids);
      if (data === text && id === record.id) return record;
      return {
        ...record,
        id,
        data: data === text ? record.data : (JSON.parse(data) as ResourceRecord['data']),
      };
    },
    referencedIds: (data) => [...new Set(JSON.stringify(data).match(pattern) ?? [])],
  };
}
