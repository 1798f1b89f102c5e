import type { ChangeAttribution, ProviderConnector } from '@libs/providers/provider-connector.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import {
  type AttributionFilter,
  AttributionIndex,
  type ChangeAttributed,
} from '@libs/diff/change-attribution.js';
import { planType } from './planner.js';
import { type RestoreSelection, RestoreScope } from './scope.js';

/**
 * What an undo does to one object (docs/restore.md "Undo since a clean backup"): `delete` an
 * object added since the clean backup, `put_back` one changed since, `recreate` one deleted since.
 */
export type UndoAction = 'delete' | 'put_back' | 'recreate';

/** One change since the clean backup that an undo reverses, with who made it. */
export interface UndoChange extends ChangeAttributed {
  resourceType: string;
  /** the record id: in the live org for `delete` and `put_back`, in the backup for `recreate` */
  id: string;
  name: string | null;
  action: UndoAction;
}

/** Which changes an undo reverses: by actor and window (AttributionFilter), of some types or ids. */
export interface UndoFilter extends AttributionFilter {
  /** only changes of these types (default: every type the backup holds) */
  types?: ReadonlySet<string>;
  /** only changes to these record ids (a revert of one change) */
  ids?: ReadonlySet<string>;
}

/**
 * The changes since a clean backup that an undo reverses, and the restore selection that reverses
 * exactly them (docs/restore.md "Undo since a clean backup"). The live org is compared with the
 * backup type by type as a restore plans it (planner.ts: matched by id, then natural key, the ids
 * of objects matched by natural key under another id mapped for the types after, as executor.ts
 * maps them; compared by what a restore writes): objects the backup lacks are `delete`, objects that differ
 * `put_back`, objects gone `recreate`. Each is attributed from the provider's audit log entries
 * since the backup (`entries`), then kept when:
 * - it passes `filter` (an actor, a window, types, ids); a change the log holds no record of
 *   passes only a filter without actor or window;
 * - it is not this service's own: an object whose every logged change since the backup was made
 *   with the connection's own credentials (a restore: `byThisService`) is left alone.
 * The selection restores the kept `put_back` and `recreate` records (and, as any selective
 * restore, what hangs off a re-created object) and prunes only the kept `delete` ones.
 *
 * @param entries the audit log's entries since the backup; undefined when the provider has none
 * @throws ProviderError when the live org cannot be read; SnapshotIntegrityError for an altered backup
 */
export async function planUndo(input: {
  snapshot: SnapshotReader;
  connector: ProviderConnector;
  restorer: ProviderRestorer;
  entries: readonly ChangeAttribution[] | undefined;
  filter: UndoFilter;
  signal?: AbortSignal;
}): Promise<{ changes: UndoChange[]; selection: RestoreSelection }> {
  const { snapshot, restorer, filter } = input;
  const all = new AttributionIndex(input.entries);
  const others = new AttributionIndex(input.entries?.filter((entry) => !entry.byThisService));
  const types = restorer.order.filter(
    (type) => snapshot.has(type) && (filter.types === undefined || filter.types.has(type)),
  );
  const changes: UndoChange[] = [];
  // The backup's record id of each kept change that a restore writes (a `put_back` may match a
  // live object of another id by natural key).
  const restoredIds = new Set<string>();
  const keep = (
    resourceType: string,
    live: { id: string; name: string | null },
    action: UndoAction,
    backupId?: string,
  ) => {
    const { id, name } = live;
    if (filter.ids !== undefined && !filter.ids.has(id) && !(backupId && filter.ids.has(backupId))) return;
    const ours =
      all.entriesFor(resourceType, id).length > 0 && others.entriesFor(resourceType, id).length === 0;
    if (ours) return;
    const by = others.attributionOf(resourceType, id, filter);
    if (!by) return;
    changes.push({ resourceType, id, name, action, ...by });
    if (backupId) restoredIds.add(backupId);
  };
  await restorer.prepare(types, input.signal);
  // Backup object id -> live id of objects matched by natural key under another id (re-created by
  // an earlier undo or restore), as a restore maps them (executor.ts): what hangs off them is
  // matched under the live id, not taken for deleted and added.
  const ids = new Map<string, string>();
  for (const type of types) {
    const scope = new RestoreScope({ types: new Set([type]) }, restorer);
    const plan = await planType({ ...input, type, scope, ids });
    for (const [from, to] of plan.rematched) if (!ids.has(from)) ids.set(from, to);
    for await (const { record } of snapshot.readPositions(type, plan.creates))
      keep(type, record, 'recreate', record.id);
    const updated = new Map(plan.updates.map((change) => [change.position, change.live]));
    for await (const { position, record } of snapshot.readPositions(type, [...updated.keys()]))
      keep(type, updated.get(position) ?? record, 'put_back', record.id);
    for (const live of plan.unmatched) keep(type, live, 'delete');
  }
  const pruned = changes.filter((change) => change.action === 'delete');
  return {
    changes,
    selection: {
      types: new Set(changes.map((change) => change.resourceType)),
      ids: restoredIds,
      pruneIds: new Set(pruned.map((change) => change.id)),
    },
  };
}
