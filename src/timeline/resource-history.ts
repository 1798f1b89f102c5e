import type { Operation } from 'fast-json-patch';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import { recordPatch } from '@libs/diff/record-patch.js';
import type { ChangeAttributed } from '@libs/diff/change-attribution.js';

/**
 * A timeline event (spec "Shapes of other returned records": Timeline event), beyond the spec
 * with who made it (docs/diff.md "Who changed it"; timeline-attribution.ts).
 */
export interface TimelineEvent extends ResourceStep, ChangeAttributed {}

/** One step of a resource's history between two backups, as the snapshots show it. */
export interface ResourceStep {
  backupId: string;
  /** when the backup that saw the change started (ISO 8601) */
  timestamp: string;
  change: 'created' | 'modified' | 'deleted';
  /** RFC 6902 operations from the previous state (`{}` before creation, after deletion) */
  diff: Operation[];
}

/** What one backup holds of the resource, read lazily: most backups need only the hash. */
interface Sighting {
  opened: OpenedBackup;
  hash: string | null;
  record?: ResourceRecord;
}

/**
 * The change history of one resource over `backups` (oldest first): an event where it appears
 * (`created`; for the oldest backup in the window, "first seen"), where its content hash changes
 * (`modified`), and where it is gone (`deleted`). Each backup costs one index shard; records are
 * opened only on either side of a change. Backups that did not capture the type are skipped
 * (absence there says nothing). Volatile fields never make an event.
 * @returns events oldest first
 * @throws SnapshotIntegrityError when a snapshot is altered
 */
export async function resourceHistory(
  backups: readonly OpenedBackup[],
  type: string,
  id: string,
): Promise<ResourceStep[]> {
  const sightings = await Promise.all(
    backups
      .filter(({ reader }) => reader.has(type))
      .map(async (opened): Promise<Sighting> => ({
        opened,
        hash: (await opened.reader.findEntry(type, id))?.hash ?? null,
      })),
  );
  const events: ResourceStep[] = [];
  let previous: Sighting | undefined;
  for (const sighting of sightings) {
    const before = previous?.hash ?? null;
    if (sighting.hash !== before) {
      const volatile = new Set(sighting.opened.reader.manifest.volatileFields);
      const oldData = previous?.hash ? (await recordOf(previous, type, id)).data : {};
      const newData = sighting.hash ? (await recordOf(sighting, type, id)).data : {};
      events.push({
        backupId: sighting.opened.backup.id,
        timestamp: sighting.opened.backup.startedAt.toISOString(),
        change: before === null ? 'created' : sighting.hash === null ? 'deleted' : 'modified',
        diff: recordPatch(oldData, newData, volatile),
      });
    }
    previous = sighting;
  }
  return events;
}

async function recordOf(sighting: Sighting, type: string, id: string): Promise<ResourceRecord> {
  if (sighting.record === undefined) {
    const found = await sighting.opened.reader.findRecord(type, id);
    if (found === undefined) throw new Error(`record ${type}/${id} vanished from an opened snapshot`);
    sighting.record = found.record;
  }
  return sighting.record;
}
