import type { ResourceRecord } from '@libs/records/resource-record.js';
import { canonicalJson } from '@libs/snapshot/content-hash.js';

/** How a backup's records differ from the org's objects, per resource type. */
export interface BackupCheck {
  exact: boolean;
  byType: Record<
    string,
    { expected: number; stored: number; missing: number; extra: number; changed: number }
  >;
}

type Expected = Record<string, Array<{ id: string; data: Record<string, unknown> }>>;

/**
 * Compares the records read back from a snapshot with the objects the org holds, by id and
 * by content (canonical JSON of `data`), per type in the backup's order. Exact means nothing
 * missing, extra or changed.
 */
export async function checkBackup(
  expected: Expected,
  readPart: (type: string) => AsyncIterable<ResourceRecord>,
  storedTypes: readonly string[],
): Promise<BackupCheck> {
  const byType: BackupCheck['byType'] = {};
  // The backup's types first: its dependency order.
  const types = new Set([...storedTypes, ...Object.keys(expected)]);
  for (const type of types) {
    const want = new Map((expected[type] ?? []).map((object) => [object.id, canonicalJson(object.data)]));
    let stored = 0;
    let extra = 0;
    let changed = 0;
    const seen = new Set<string>();
    if (storedTypes.includes(type)) {
      for await (const record of readPart(type)) {
        stored += 1;
        seen.add(record.id);
        const wanted = want.get(record.id);
        if (wanted === undefined) extra += 1;
        else if (wanted !== canonicalJson(record.data)) changed += 1;
      }
    }
    const missing = [...want.keys()].filter((id) => !seen.has(id)).length;
    byType[type] = { expected: want.size, stored, missing, extra, changed };
  }
  const exact = Object.values(byType).every((t) => t.missing === 0 && t.extra === 0 && t.changed === 0);
  return { exact, byType };
}
