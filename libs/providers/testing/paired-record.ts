import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/**
 * The live record a restore pairs with `backedUp`, as the engine pairs them: the one with its
 * record id, else the one with its natural key; undefined when none (the engine creates it).
 */
export function pairedRecord(
  live: readonly ResourceRecord[],
  restorer: ProviderRestorer,
  backedUp: ResourceRecord,
): ResourceRecord | undefined {
  const key = restorer.naturalKey(backedUp);
  return (
    live.find((record) => record.id === backedUp.id) ??
    (key === null ? undefined : live.find((record) => restorer.naturalKey(record) === key))
  );
}
