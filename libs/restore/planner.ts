import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { IdMap, LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/providers/resource-types.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { RestoreScope } from './scope.js';

/** A backup record a plan writes, by id; the executor reads it again when it applies it. */
export interface PlannedWrite {
  /** record id in the backup */
  backupId: string;
  /** the same id with re-created objects' ids replaced (the id it has, or will have, live) */
  id: string;
  name: string | null;
}

/** What a restore would do to one type (planner.ts `planType`). */
export interface TypePlan {
  type: string;
  /** in scope, not live (by id or natural key): created */
  creates: PlannedWrite[];
  /** live with other content: changed into the backup's */
  updates: Array<PlannedWrite & { live: LiveResource }>;
  /**
   * Types written in sequence (priorities): the live objects equal to their backup record. Okta
   * renumbers priorities as writes land, so once one object of such a type is written, every one
   * is written again in order (executor.ts).
   */
  unchanged: Array<PlannedWrite & { live: LiveResource }>;
  /** live and equal, or left alone (managed by the provider, protected) */
  skip: number;
  /** why records were left alone, once each */
  notes: Set<string>;
  /** live objects the backup lacks (prunable types only): deleted by a restore with `prune` */
  unmatched: LiveResource[];
  /** live objects matched to a backup record, which a prune keeps */
  matched: LiveResource[];
  /** backup object id -> live id, for objects matched by natural key under another id */
  rematched: Map<string, string>;
  /** the live records of `unmatched`, when asked for (`keepUnmatched`: the preview rates them) */
  unmatchedRecords: Map<string, ResourceRecord>;
}

interface Wanted extends PlannedWrite {
  fingerprint: string;
  key: string | null;
  managedBecause: string | null;
}

/**
 * Plans one type of a restore (DESIGN section 6): which backup records in scope are created,
 * changed or left alone, and which live objects the backup lacks. Reads only: the backup part
 * once, then the type's live objects once, holding one small entry per record (ids, key,
 * fingerprint), never whole objects.
 *
 * Matching: by record id after rewriting through `ids`, then by the provider's natural key
 * (a group's name, a user's login) among live objects not matched yet, so that an object
 * re-created by an earlier run or by an admin is updated rather than created twice. Equal
 * fingerprints (what a restore writes, server-owned fields left out) mean nothing to do.
 * Objects the provider manages itself (`managedBecause`: the Everyone group, a user type's schema)
 * are updated when they differ but never created; objects it protects (`protectedBecause`) are
 * left alone; neither is a prune candidate.
 *
 * @throws ProviderError when the live org cannot be read; SnapshotIntegrityError when the
 *   backup is altered
 */
export async function planType(input: {
  type: string;
  snapshot: SnapshotReader;
  connector: ProviderConnector;
  restorer: ProviderRestorer;
  scope: RestoreScope;
  ids: IdMap;
  /** keep the live records the backup lacks (`unmatchedRecords`) */
  keepUnmatched?: boolean;
  signal?: AbortSignal;
}): Promise<TypePlan> {
  const { type, restorer, scope } = input;
  const plan = emptyPlan(type);
  const wanted: Wanted[] = [];
  for await (const record of input.snapshot.readPart(type)) {
    if (!scope.includes(record)) continue;
    const rewritten = restorer.rewrite(record, input.ids);
    wanted.push({
      backupId: record.id,
      id: rewritten.id,
      name: record.name,
      fingerprint: restorer.fingerprint(rewritten),
      key: restorer.naturalKey(rewritten),
      managedBecause: restorer.managedBecause(record),
    });
  }
  const prunable = scope.prunable(type);
  if (wanted.length === 0 && !prunable) return plan;

  const live = new Map<string, LiveResource>();
  const byKey = new Map<string, string>();
  const managedLive = new Set<string>();
  // Live records no backup record can match (by id or key), kept only when asked for.
  const wantedIds = new Set(wanted.map((entry) => entry.id));
  const wantedKeys = new Set(wanted.flatMap((entry) => (entry.key === null ? [] : [entry.key])));
  const lacking = new Map<string, ResourceRecord>();
  for await (const part of input.connector.collect({ types: [type], signal: input.signal })) {
    for await (const record of part.records) {
      const resource = restorer.live(record);
      live.set(resource.id, resource);
      if (resource.key !== null && !byKey.has(resource.key)) byKey.set(resource.key, resource.id);
      if (restorer.managedBecause(record) !== null) managedLive.add(resource.id);
      else if (
        input.keepUnmatched &&
        !wantedIds.has(resource.id) &&
        !(resource.key !== null && wantedKeys.has(resource.key))
      )
        lacking.set(resource.id, record);
    }
  }

  const sequenced = restorer.sequence(type) !== null;
  const claimed = new Set<string>();
  const claim = (id: string | undefined): LiveResource | undefined => {
    if (id === undefined || claimed.has(id)) return undefined;
    const resource = live.get(id);
    if (resource) claimed.add(id);
    return resource;
  };
  // Ids first, for every record, so that a natural key never takes an object another record names.
  const matches = wanted.map((entry) => claim(entry.id));
  wanted.forEach((entry, index) => {
    const match = matches[index] ?? (entry.key === null ? undefined : claim(byKey.get(entry.key)));
    if (match && match.id !== entry.id) plan.rematched.set(ownId(entry.backupId), ownId(match.id));
    // Objects the provider manages are updated, never created; protected ones are not touched.
    const leftAlone = match ? match.protectedBecause : entry.managedBecause;
    if (leftAlone) {
      plan.skip += 1;
      plan.notes.add(leftAlone);
    } else if (!match) plan.creates.push(entry);
    else if (match.fingerprint !== entry.fingerprint)
      plan.updates.push({ ...entry, id: match.id, live: match });
    else {
      plan.skip += 1;
      if (sequenced) plan.unchanged.push({ ...entry, id: match.id, live: match });
    }
  });
  for (const resource of live.values()) {
    if (claimed.has(resource.id)) plan.matched.push(resource);
    else if (prunable && !managedLive.has(resource.id)) {
      plan.unmatched.push(resource);
      const record = lacking.get(resource.id);
      if (record) plan.unmatchedRecords.set(resource.id, record);
    }
  }
  return plan;
}

/** A plan that writes nothing, for `type`. */
export function emptyPlan(type: string): TypePlan {
  return {
    type,
    creates: [],
    updates: [],
    unchanged: [],
    skip: 0,
    notes: new Set(),
    unmatched: [],
    matched: [],
    rematched: new Map(),
    unmatchedRecords: new Map(),
  };
}

/** The object's own id in a record id (`<groupId>:<userId>` -> the user's). */
export function ownId(recordId: string): string {
  return recordId.slice(recordId.lastIndexOf(':') + 1);
}
