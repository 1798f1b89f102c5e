import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { planType } from '@libs/restore/planner.js';
import { RestoreScope } from '@libs/restore/scope.js';

/**
 * Into another org, the id map must name the target's object for every backup object a restored
 * record refers to, selected or not (a promoted group's memberships name users the restore does
 * not write): matches the type's backup records with the target's live objects by natural key,
 * writing nothing, and adds each match to `ids` (an id already mapped stays), and to `absent` the
 * provider's own objects the target has no twin of.
 * @throws ProviderError when the target cannot be read; SnapshotIntegrityError
 */
export async function mapUnselectedType(input: {
  type: string;
  snapshot: SnapshotReader;
  connector: ProviderConnector;
  restorer: ProviderRestorer;
  ids: Map<string, string>;
  /** grown by the provider's own objects the target has no twin of (TypePlan.absent) */
  absent?: Map<string, string>;
  signal?: AbortSignal;
}): Promise<void> {
  const scope = new RestoreScope({ types: new Set([input.type]) }, input.restorer);
  const { type, snapshot, connector, restorer, ids, signal } = input;
  const plan = await planType({ type, snapshot, connector, restorer, ids, signal, scope, crossOrg: true });
  for (const [from, to] of plan.rematched) if (!input.ids.has(from)) input.ids.set(from, to);
  for (const [id, absentType] of plan.absent) input.absent?.set(id, absentType);
}
