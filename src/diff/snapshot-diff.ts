import type { Operation } from 'fast-json-patch';
import { type IndexShardChanges, diffIndexShards } from '@libs/snapshot/index-shard-diff.js';
import { INDEX_SHARDS } from '@libs/snapshot/index-shards.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { recordPatch } from '@libs/diff/record-patch.js';
import { scopeFactsOf } from './scope-facts.js';
import type { ChangeAction, ChangePart, Severity } from '@libs/diff/change-facts.js';
import { rateChange } from '@libs/diff/severity-rule.js';
import type { ProviderDescriptor } from '@libs/providers/provider-descriptor.js';
import { type Recreation, recreatedPairs, rewriteIds } from './recreation.js';

/** One change between two snapshots (spec "Shapes of other returned records": Diff change). */
export interface ResourceChange {
  resourceType: string;
  action: ChangeAction;
  resource: {
    id: string;
    name: string | null;
    /** for `modified`: RFC 6902 operations, each replace/remove preceded by a `test` of the old value */
    changes?: Operation[];
  };
  severity: Severity;
  /** id of the severity rule that decided it (docs/severity.md) */
  rule: string;
  /** for `modified`, where the provider's records have named parts (a flow's cards): the change part by part */
  parts?: ChangePart[];
  /**
   * for `modified`: the object was re-created by a restore between the two backups, under the
   * new id `resource.id`; `previousId` is its id in the `from` backup (docs/diff.md "Re-created objects")
   */
  recreated?: { previousId: string };
}

/**
 * What rates a provider's changes: its severity table and the scoping facts its rules read, and
 * the named parts of its records, if any.
 */
export type SeverityModel = Pick<ProviderDescriptor, 'severityRules' | 'scopingParents' | 'changeParts'>;

/**
 * Compares the records of `types` in two snapshots. Hashes first: shards whose entry digests match
 * are skipped unread, the others compared entry by entry, one shard of each snapshot in memory at a
 * time (`diffIndexShards`: nothing is kept of the entries that are equal);
 * then only the records that differ are opened,
 * from only the frames that hold them: the cost grows with the number of changes, not the size of
 * the org (DESIGN section 5). Volatile fields never make a change (they are out of the hashes and
 * out of the patches).
 * @param types resource types both snapshots hold
 * @param volatile the snapshots' volatile field list (equal for both; the caller checks)
 * @param provider the snapshots' provider: its severity table rates each change
 * @param recreation when given, a removed record and an added one that a restore re-created it as
 *   are one change (`modified` with `recreated`), or none when they differ only in server-owned
 *   fields; references to re-created objects are compared as the ids they now have
 * @returns changes by type in `types` order, then removed, added, modified, then by id
 * @throws SnapshotIntegrityError when either snapshot is altered
 */
export async function diffSnapshots(
  from: SnapshotReader,
  to: SnapshotReader,
  types: readonly string[],
  volatile: ReadonlySet<string>,
  provider: SeverityModel,
  recreation?: Recreation,
): Promise<ResourceChange[]> {
  const changes: ResourceChange[] = [];
  for (const type of types) {
    const located = await compareIndexes(from, to, type);
    changes.push(...(await openChanges(from, to, type, located, volatile, provider, recreation)));
  }
  return changes;
}

/**
 * `diffSnapshots` for a caller that folds the changes instead of keeping them (the drift alert):
 * one index shard of one type at a time, so memory holds that shard's changes, not the diff's.
 * Within a type, changes come shard by shard (each shard's removed, added, modified, by id).
 * @throws SnapshotIntegrityError when either snapshot is altered
 */
export async function forEachChange(
  from: SnapshotReader,
  to: SnapshotReader,
  types: readonly string[],
  volatile: ReadonlySet<string>,
  provider: SeverityModel,
  visit: (change: ResourceChange) => void,
): Promise<void> {
  for (const type of types) {
    for (let shard = 0; shard < INDEX_SHARDS; shard += 1) {
      const located = await compareShard(from, to, type, shard);
      if (located === undefined) continue;
      for (const change of await openChanges(from, to, type, located, volatile, provider)) visit(change);
    }
  }
}

async function compareIndexes(
  from: SnapshotReader,
  to: SnapshotReader,
  type: string,
): Promise<IndexShardChanges> {
  let located: IndexShardChanges = { added: [], removed: [], modified: [] };
  for (let shard = 0; shard < INDEX_SHARDS; shard += 1) {
    const changes = await compareShard(from, to, type, shard);
    if (changes === undefined) continue;
    located = {
      added: located.added.concat(changes.added),
      removed: located.removed.concat(changes.removed),
      modified: located.modified.concat(changes.modified),
    };
  }
  return located;
}

/** One index shard of a type compared; undefined when its digests match (nothing read). */
async function compareShard(
  from: SnapshotReader,
  to: SnapshotReader,
  type: string,
  shard: number,
): Promise<IndexShardChanges | undefined> {
  if (from.shardDigest(type, shard) === to.shardDigest(type, shard)) return undefined;
  const [before, after] = await Promise.all([
    from.readIndexShardText(type, shard),
    to.readIndexShardText(type, shard),
  ]);
  return diffIndexShards(before, after);
}

async function openChanges(
  from: SnapshotReader,
  to: SnapshotReader,
  type: string,
  located: IndexShardChanges,
  volatile: ReadonlySet<string>,
  provider: SeverityModel,
  recreation?: Recreation,
): Promise<ResourceChange[]> {
  const changes: ResourceChange[] = [];
  const modifiedIds = new Set(located.modified.map(({ from: entry }) => entry.id));
  const beforeOfModified = new Map<string, Record<string, unknown>>();
  /** added id -> removed id of the same object re-created, and the removed record's data once read */
  const pairs = recreation ? recreatedPairs(type, located, recreation) : new Map<string, string>();
  const pairedRemoved = new Set(pairs.values());
  const beforeOfRecreated = new Map<string, Record<string, unknown>>();
  const noScope = () => undefined;
  const scope =
    located.added.length + located.removed.length > 0
      ? await scopeFactsOf(from, to, type, provider.scopingParents)
      : noScope;

  for await (const record of from.readRecords(type, [
    ...located.removed,
    ...located.modified.map((pair) => pair.from),
  ])) {
    if (modifiedIds.has(record.id)) {
      beforeOfModified.set(record.id, recreation ? rewriteIds(record.data, recreation.ids) : record.data);
      continue;
    }
    if (pairedRemoved.has(record.id)) {
      beforeOfRecreated.set(record.id, rewriteIds(record.data, recreation!.ids, record.id));
      continue;
    }
    const { severity, rule } = rateChange(provider.severityRules, {
      resourceType: type,
      action: 'removed',
      before: record.data,
      patch: [],
      scope: scope('removed', record.id),
    });
    changes.push({
      resourceType: type,
      action: 'removed',
      resource: { id: record.id, name: record.name },
      severity,
      rule,
    });
  }

  for await (const record of to.readRecords(type, [
    ...located.added,
    ...located.modified.map((pair) => pair.to),
  ])) {
    const previousId = pairs.get(record.id);
    if (previousId !== undefined) {
      const change = recreatedChange(
        type,
        previousId,
        beforeOfRecreated.get(previousId)!,
        record,
        provider,
        recreation!,
      );
      if (change) changes.push(change);
      else recreation!.unchanged?.({ resourceType: type, previousId, id: record.id });
      continue;
    }
    const before = beforeOfModified.get(record.id);
    if (before === undefined) {
      const { severity, rule } = rateChange(provider.severityRules, {
        resourceType: type,
        action: 'added',
        after: record.data,
        patch: [],
        scope: scope('added', record.id),
      });
      changes.push({
        resourceType: type,
        action: 'added',
        resource: { id: record.id, name: record.name },
        severity,
        rule,
      });
      continue;
    }
    beforeOfModified.delete(record.id);
    const patch = recordPatch(before, record.data, volatile);
    // Only references to re-created objects differed: the same configuration.
    if (patch.length === 0) continue;
    const { severity, rule } = rateChange(provider.severityRules, {
      resourceType: type,
      action: 'modified',
      before,
      after: record.data,
      patch,
    });
    const parts = provider.changeParts?.(type, before, record.data, patch);
    changes.push({
      resourceType: type,
      action: 'modified',
      resource: { id: record.id, name: record.name, changes: patch },
      severity,
      rule,
      ...(parts && parts.length > 0 ? { parts } : {}),
    });
  }
  const order: Record<ChangeAction, number> = { removed: 0, added: 1, modified: 2 };
  return changes.sort(
    (a, b) => order[a.action] - order[b.action] || (a.resource.id < b.resource.id ? -1 : 1),
  );
}

/**
 * The one change of an object a restore re-created (`before` its record in the `from` backup,
 * references rewritten; `after` its record under the new id), compared without server-owned
 * fields: `modified` with `recreated`, or null when nothing else differs.
 */
function recreatedChange(
  type: string,
  previousId: string,
  before: Record<string, unknown>,
  after: { id: string; name: string | null; data: Record<string, unknown> },
  provider: SeverityModel,
  recreation: Recreation,
): ResourceChange | null {
  const patch = recordPatch(before, after.data, recreation.serverOwned);
  if (patch.length === 0) return null;
  const { severity, rule } = rateChange(provider.severityRules, {
    resourceType: type,
    action: 'modified',
    before,
    after: after.data,
    patch,
  });
  const parts = provider.changeParts?.(type, before, after.data, patch);
  return {
    resourceType: type,
    action: 'modified',
    resource: { id: after.id, name: after.name, changes: patch },
    severity,
    rule,
    ...(parts && parts.length > 0 ? { parts } : {}),
    recreated: { previousId },
  };
}
