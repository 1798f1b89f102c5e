import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { ValidationError } from '@app/common/errors.js';

/** A record a search found: its type, id and display name, never its data. */
export interface RecordMatch {
  resourceType: string;
  id: string;
  name: string | null;
}

/** What a search found: every match counted, the first `keep` kept. */
export interface RecordSearch {
  total: number;
  byType: Record<string, number>;
  matches: RecordMatch[];
}

/**
 * The records of a snapshot whose name contains `query` (case-insensitive) or whose id is
 * `query`, in the order written, type by type. Reads only each record's type, id and name
 * (`readBatches` with an empty projection), so memory stays flat and no record's data, hence no
 * field of it, can leave.
 * @param types the types to read; default every type the snapshot holds
 * @param keep most matches kept (all are counted)
 * @throws ValidationError for a type the snapshot does not hold
 */
export async function searchRecords(
  reader: SnapshotReader,
  query: string,
  types: readonly string[] | undefined,
  keep: number,
): Promise<RecordSearch> {
  const missing = (types ?? []).filter((type) => !reader.has(type));
  if (missing.length > 0) {
    throw new ValidationError(
      `This backup holds no ${missing.join(', ')}; it holds: ${reader.types.join(', ')}`,
    );
  }
  const needle = query.toLowerCase();
  const found: RecordSearch = { total: 0, byType: {}, matches: [] };
  for (const type of types ?? reader.types) {
    for await (const batch of reader.readBatches(type, [])) {
      for (const record of batch) {
        if (record.id !== query && !(record.name ?? '').toLowerCase().includes(needle)) continue;
        found.total += 1;
        found.byType[type] = (found.byType[type] ?? 0) + 1;
        if (found.matches.length < keep)
          found.matches.push({ resourceType: type, id: record.id, name: record.name });
      }
    }
  }
  return found;
}
