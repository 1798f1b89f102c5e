import type { ResourceRecord } from '@libs/records/resource-record.js';
import { revertFields, type UndoField } from '@libs/restore/field-revert.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';

/**
 * The `reshape` of an undo of some fields (docs/restore.md "Revert one field"): for each object
 * named, its record as `now` holds it (the pre-restore backup, taken just before the undo
 * writes) with the fields put back as `clean` holds them; other records as they are.
 * @throws SnapshotIntegrityError for an altered backup
 */
export async function fieldReverts(
  clean: SnapshotReader,
  now: SnapshotReader,
  fields: readonly UndoField[],
): Promise<(type: string, record: ResourceRecord) => ResourceRecord> {
  const paths = new Map<string, string[]>();
  for (const { resourceId, path } of fields) paths.set(resourceId, [...(paths.get(resourceId) ?? []), path]);
  const reverted = new Map<string, ResourceRecord['data']>();
  for (const [id, pointers] of paths)
    for (const type of clean.types) {
      const before = await clean.findRecord(type, id);
      if (!before) continue;
      const current = now.has(type) ? await now.findRecord(type, id) : undefined;
      if (current)
        reverted.set(`${type}\u0000${id}`, revertFields(current.record.data, before.record.data, pointers));
      break;
    }
  return (type, record) => {
    const data = reverted.get(`${type}\u0000${record.id}`);
    return data ? { ...record, data } : record;
  };
}
