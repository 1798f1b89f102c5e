import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { RestoreTestOrg } from './restore-test-org.js';

/** The live records of `type` under a parent record (`<parentId>:...`). */
export async function childrenOf(
  org: RestoreTestOrg,
  type: OktaResourceType,
  parentId: string,
): Promise<ResourceRecord[]> {
  return (await org.records(type)).filter((record) => record.id.startsWith(`${parentId}:`));
}

/**
 * The live record a restore plan pairs with a backed-up one (ProviderRestorer: same record id,
 * else same natural key), or undefined.
 */
export async function pairedLive(
  org: RestoreTestOrg,
  restorer: ProviderRestorer,
  backup: ResourceRecord,
): Promise<ResourceRecord | undefined> {
  const key = restorer.naturalKey(backup);
  return (await org.records(backup.type as OktaResourceType)).find(
    (record) => record.id === backup.id || (key !== null && restorer.naturalKey(record) === key),
  );
}
