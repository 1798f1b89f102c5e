import type { DeletedRecord, ResourcePart } from '@libs/providers/provider-connector.js';
import type { ResourceRecord } from '@libs/providers/resource-types.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';

/** What the provider deleted since the base: by type, and every deleted id (for cascades). */
export interface Deletions {
  byType: Map<string, Set<string>>;
  ids: Set<string>;
}

/** Gathers `deletedSince` into {@link Deletions}. */
export async function gatherDeletions(reported: AsyncIterable<DeletedRecord>): Promise<Deletions> {
  const deletions: Deletions = { byType: new Map(), ids: new Set() };
  for await (const { type, id } of reported) {
    let ids = deletions.byType.get(type);
    if (ids === undefined) deletions.byType.set(type, (ids = new Set()));
    ids.add(id);
    deletions.ids.add(id);
  }
  return deletions;
}

/**
 * Records of one type for an incremental snapshot, following the merge rule of
 * `ProviderConnector` (libs/providers/provider-connector.ts): the base's records, less those
 * deleted (and those whose composite id names a deleted object: a deleted group's or user's
 * memberships), with the part applied: `changed` records replace or join the base's,
 * `children_of` replaces the children of the listed parents. A part without `delta` is complete
 * and is given as is. The part is read whole first (it holds only changes); the base streams.
 * @throws SnapshotIntegrityError when the base is altered
 */
export async function* mergedRecords(
  base: SnapshotReader,
  part: ResourcePart,
  deletions: Deletions,
): AsyncGenerator<ResourceRecord> {
  const { delta } = part;
  if (delta === undefined) {
    yield* part.records;
    return;
  }
  const incoming = new Map<string, ResourceRecord>();
  for await (const record of part.records) incoming.set(record.id, record);
  const deletedOfType = deletions.byType.get(part.type);
  const replacedParents = new Set(delta.kind === 'children_of' ? delta.parentIds : []);
  const dropped = (id: string): boolean => {
    if (deletedOfType?.has(id)) return true;
    const path = id.split(':');
    return path.length > 1 && (replacedParents.has(path[0]) || path.some((step) => deletions.ids.has(step)));
  };
  if (base.has(part.type)) {
    for await (const record of base.readPart(part.type)) {
      if (dropped(record.id)) continue;
      const replacement = incoming.get(record.id);
      if (replacement !== undefined) incoming.delete(record.id);
      yield replacement ?? record;
    }
  }
  yield* incoming.values();
}
