import type { DeletedRecord, EncodedResourcePart } from '@libs/providers/provider-connector.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { type EncodedRecords, isEncodedRecords } from '@libs/snapshot/encoded-records.js';
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
 * `ProviderConnector` (libs/providers/provider-connector.ts): the part's records first (`changed`
 * records, or the complete children of the `children_of` parents), then the base's records less
 * those the part replaced, those deleted, and those whose composite id names a deleted object (a
 * deleted group's or user's memberships). A part without `delta` is complete and given as is.
 * Memory holds ids only, so a change of every user streams like a full backup; record order
 * differs from a full backup's, which no reader relies on.
 * @throws SnapshotIntegrityError when the base is altered
 */
export async function* mergedRecords(
  base: SnapshotReader,
  part: EncodedResourcePart,
  deletions: Deletions,
): AsyncGenerator<ResourceRecord | EncodedRecords> {
  const { delta } = part;
  if (delta === undefined) {
    yield* part.records;
    return;
  }
  const fetched = new Set<string>();
  for await (const item of part.records) {
    if (isEncodedRecords(item)) for (const id of item.ids) fetched.add(id);
    else fetched.add(item.id);
    yield item;
  }
  if (!base.has(part.type)) return;
  const deletedOfType = deletions.byType.get(part.type);
  const replacedParents = new Set(delta.kind === 'children_of' ? delta.parentIds : []);
  const superseded = (id: string): boolean => {
    if (fetched.has(id) || deletedOfType?.has(id)) return true;
    const path = id.split(':');
    return path.length > 1 && (replacedParents.has(path[0]) || path.some((step) => deletions.ids.has(step)));
  };
  for await (const record of base.readPart(part.type)) {
    if (!superseded(record.id)) yield record;
  }
}
