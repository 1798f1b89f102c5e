import type { PartDelta } from '@libs/providers/provider-connector.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/**
 * For specs: one type's records after an incremental collection, by the merge rule of
 * ProviderConnector (provider-connector.ts): the base less the deleted records (and those whose
 * composite id names a deleted object), then the part applied (a complete part replaces all; a
 * `changed` part replaces or adds by id; a `children_of` part replaces its parents' children).
 *
 * @param deleted ids `deletedSince` reported, of every type.
 * @returns record id -> record.
 */
export function mergePart(
  base: readonly ResourceRecord[],
  part: { delta?: PartDelta; records: ResourceRecord[] },
  deleted: ReadonlySet<string>,
): Map<string, ResourceRecord> {
  const gone = (id: string) => deleted.has(id) || id.split(':').some((segment) => deleted.has(segment));
  const result = new Map(base.filter((record) => !gone(record.id)).map((record) => [record.id, record]));
  if (!part.delta) return new Map(part.records.map((record) => [record.id, record]));
  if (part.delta.kind === 'children_of') {
    const parents = new Set(part.delta.parentIds);
    for (const id of [...result.keys()]) if (parents.has(id.split(':')[0])) result.delete(id);
  }
  for (const record of part.records) result.set(record.id, record);
  return result;
}
