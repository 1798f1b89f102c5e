import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import { contentHash } from '@libs/snapshot/content-hash.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { Severity } from '../diff/severity/change-facts.js';
import { rateChange } from '../diff/severity/severity-rules.js';

/** One row of the preview (spec "Shapes of other returned records": Restore preview row). */
export interface RestorePreviewRow {
  resourceType: string;
  /** in the backup, not in the live org: would be created (with a new id where the provider assigns one) */
  create: number;
  /** in both, with different content: would be updated */
  update: number;
  /** in both, the same: left alone */
  skip: number;
  /** beyond the spec: in the live org only; removed only by a restore with `prune: true` */
  pruneCandidates: number;
}

/** A live resource the backup lacks, with the severity its removal would have (docs/severity.md). */
export interface PruneCandidate {
  resourceType: string;
  id: string;
  name: string | null;
  severity: Severity;
}

/** At most this many prune candidates are listed (all are counted in the rows). */
export const MAX_LISTED_PRUNE_CANDIDATES = 1000;

/**
 * Compares a backup with the live org, type by type, by content hash (the snapshot's volatile
 * fields left out, so a login does not make an update). Reads only: the connector lists, the
 * snapshot's index is read shard by shard; memory holds one type's index hashes.
 * @param types types the snapshot holds, in dependency order
 * @throws ProviderError from the connector; SnapshotIntegrityError when the snapshot is altered
 */
export async function previewRestore(
  snapshot: SnapshotReader,
  connector: ProviderConnector,
  types: readonly string[],
): Promise<{ rows: RestorePreviewRow[]; prune: PruneCandidate[] }> {
  const volatile = new Set(snapshot.manifest.volatileFields);
  const rows: RestorePreviewRow[] = [];
  const prune: PruneCandidate[] = [];
  for await (const part of connector.collect({ types })) {
    const backedUp = new Map<string, string>();
    for await (const entry of snapshot.readIndex(part.type)) backedUp.set(entry.id, entry.hash);
    const row: RestorePreviewRow = {
      resourceType: part.type,
      create: 0,
      update: 0,
      skip: 0,
      pruneCandidates: 0,
    };
    for await (const record of part.records) {
      const hash = backedUp.get(record.id);
      backedUp.delete(record.id);
      if (hash === undefined) {
        row.pruneCandidates += 1;
        if (prune.length < MAX_LISTED_PRUNE_CANDIDATES) {
          const { severity } = rateChange({
            resourceType: part.type,
            action: 'removed',
            before: record.data,
            patch: [],
          });
          prune.push({ resourceType: part.type, id: record.id, name: record.name, severity });
        }
      } else if (hash === contentHash(record.data, volatile)) row.skip += 1;
      else row.update += 1;
    }
    row.create = backedUp.size;
    rows.push(row);
  }
  return { rows, prune };
}
