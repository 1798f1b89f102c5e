import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { IdMap, LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { RestoreScope } from './scope.js';

/**
 * A backup record a plan changes into the backup's content (or writes again, in sequence): where
 * it is in the backup part (`SnapshotReader.readPositions`) and the live object it matched.
 */
export interface PlannedChange {
  position: number;
  live: LiveResource;
}

/**
 * What a restore would do to one type (planner.ts `planType`). A record to write is held as its
 * position in the backup part, a number, and read again when it is written: a restore of 100,000
 * users plans about 1.3 million writes (docs/restore.md "Memory").
 */
export interface TypePlan {
  type: string;
  /** in scope, not live (by id or natural key): created; positions in the part, ascending */
  creates: number[];
  /** live with other content: changed into the backup's */
  updates: PlannedChange[];
  /**
   * Types written in sequence (priorities): the live objects equal to their backup record. Okta
   * renumbers priorities as writes land, so once one object of such a type is written, every one
   * is written again in order (executor.ts).
   */
  unchanged: PlannedChange[];
  /** live and equal, or left alone (managed by the provider, protected) */
  skip: number;
  /** why records were left alone, once each */
  notes: Set<string>;
  /** live objects the backup lacks (prunable types only): deleted by a restore with `prune` */
  unmatched: LiveResource[];
  /** live objects matched to a backup record, which a prune keeps (prunable types only) */
  matched: LiveResource[];
  /** backup object id -> live id, for objects matched by natural key under another id */
  rematched: Map<string, string>;
  /** the live records of `unmatched`, when asked for (`keepUnmatched`: the preview rates them) */
  unmatchedRecords: Map<string, ResourceRecord>;
  /**
   * Into another org: backup object id -> type, of the provider's own top-level objects (managed,
   * never created) that the target has no twin of: what names them cannot be written there
   * (cross-org/absent-references.ts).
   */
  absent: Map<string, string>;
}

/**
 * What a plan decided for one backup record in scope (`planType`'s `observe`): created, changed
 * into the backup's, the same as its live twin, or left alone (managed by the provider, protected).
 */
export interface PlanDecision {
  type: string;
  /** position in the backup part */
  position: number;
  /** record id in the backup */
  backupId: string;
  outcome: 'create' | 'update' | 'same' | 'left_alone';
  /** the live object it matched, if any */
  live?: LiveResource;
  /** why it was left alone */
  why?: string;
}

/** A backup record in scope that no live object has its id: matched by natural key once all ids are. */
interface ByKey {
  position: number;
  backupId: string;
  /** the record id rewritten through the id map */
  id: string;
  key: string;
  fingerprint: string;
  managedBecause: string | null;
  refusedBecause: string | null;
  caution: string | null;
  /** into another org only: the rewritten record, compared again once its own id is mapped */
  record?: ResourceRecord;
}

/**
 * Plans one type of a restore (DESIGN section 6): which backup records in scope are created,
 * changed or left alone, and which live objects the backup lacks. Reads only: the type's live
 * objects once, then the backup part once (and its first records before, to know whether any is
 * in scope). It holds the live objects of the type, and per backup record only what the
 * decision needs: a record matched by id is decided as it is read; one created is kept as its
 * position; only a record that waits for a natural-key match is kept with its ids, key and
 * fingerprint until the part is read.
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
  /**
   * The live org is another org than the backup's (docs/restore.md "Into another org"): a record
   * with a natural key is matched by it, never by an id it happens to share; only an id the map
   * rewrote (an earlier natural-key match, an explicit pair) or a record without a natural key (an
   * org's singletons, fixed ids) is matched by id.
   */
  crossOrg?: boolean;
  /** Told each decision as it is made (the cross-org preview lists them object by object). */
  observe?: (decision: PlanDecision) => void;
  signal?: AbortSignal;
}): Promise<TypePlan> {
  const { type, restorer, scope } = input;
  const plan = emptyPlan(type);
  const prunable = scope.prunable(type);
  // Live records no backup record can match (by id or key), kept only when asked for.
  const wanted = input.keepUnmatched ? await wantedIdsAndKeys(input) : undefined;
  if (!prunable && !(wanted ? wanted.ids.size > 0 : await anyInScope(input))) return plan;

  const live = new LiveIndex();
  const byKey = new Map<string, string>();
  const managedLive = new Set<string>();
  const lacking = new Map<string, ResourceRecord>();
  for await (const part of input.connector.collect({ types: [type], signal: input.signal })) {
    for await (const record of part.records) {
      const resource = restorer.live(record);
      live.add(resource);
      if (resource.key !== null && !byKey.has(resource.key)) byKey.set(resource.key, resource.id);
      if (restorer.managedBecause(record) !== null) managedLive.add(resource.id);
      else if (
        wanted &&
        !wanted.ids.has(resource.id) &&
        !(resource.key !== null && wanted.keys.has(resource.key))
      )
        lacking.set(resource.id, record);
    }
  }

  const sequenced = restorer.sequence(type) !== null;
  // A live object is claimed once: it leaves the index, and only a prune needs it kept (matched).
  const claim = (id: string | undefined): LiveResource | undefined => {
    const resource = id === undefined ? undefined : live.take(id);
    if (resource && prunable) plan.matched.push(resource);
    return resource;
  };
  const decide = (
    entry: {
      position: number;
      backupId: string;
      id: string;
      fingerprint: () => string;
      managedBecause: string | null;
      /** why the org refuses the record however written (ProviderRestorer.refusedBecause) */
      refusedBecause: string | null;
      /** what the provider says of writing it (ProviderRestorer.caution), noted when it is written */
      caution: string | null;
    },
    match: LiveResource | undefined,
  ): void => {
    if (match && match.id !== entry.id) plan.rematched.set(ownId(entry.backupId), ownId(match.id));
    // Objects the provider manages are updated, never created; protected ones are not touched;
    // what the org refuses however written is neither.
    const leftAlone = entry.refusedBecause ?? (match ? match.protectedBecause : entry.managedBecause);
    const seen = { type, position: entry.position, backupId: entry.backupId, ...(match && { live: match }) };
    if (leftAlone) {
      // An object, not a link between two (a membership's own id is its user's).
      if (!match && input.crossOrg && !entry.backupId.includes(':')) plan.absent.set(entry.backupId, type);
      plan.skip += 1;
      plan.notes.add(leftAlone);
      input.observe?.({ ...seen, outcome: 'left_alone', why: leftAlone });
    } else if (!match) {
      plan.creates.push(entry.position);
      if (entry.caution) plan.notes.add(entry.caution);
      input.observe?.({ ...seen, outcome: 'create' });
    } else if (match.fingerprint !== entry.fingerprint()) {
      plan.updates.push({ position: entry.position, live: match });
      if (entry.caution) plan.notes.add(entry.caution);
      input.observe?.({ ...seen, outcome: 'update' });
    } else {
      plan.skip += 1;
      if (sequenced) plan.unchanged.push({ position: entry.position, live: match });
      input.observe?.({ ...seen, outcome: 'same' });
    }
  };
  // Ids first, for every record, so that a natural key never takes an object another record names.
  const byKeyLater: ByKey[] = [];
  let position = -1;
  for await (const record of input.snapshot.readPart(type)) {
    position += 1;
    if (!scope.includes(record)) continue;
    const rewritten = restorer.rewrite(record, input.ids);
    const managedBecause = restorer.managedBecause(record);
    const caution = restorer.caution?.(rewritten) ?? null;
    const refusedBecause = restorer.refusedBecause?.(rewritten) ?? null;
    const keyed = input.crossOrg && rewritten.id === record.id && restorer.naturalKey(rewritten) !== null;
    const match = keyed ? undefined : claim(rewritten.id);
    const key = match ? null : restorer.naturalKey(rewritten);
    if (key !== null)
      byKeyLater.push({
        position,
        backupId: record.id,
        id: rewritten.id,
        key,
        fingerprint: restorer.fingerprint(rewritten),
        managedBecause,
        refusedBecause,
        caution,
        ...(input.crossOrg && { record: rewritten }),
      });
    else
      decide(
        {
          position,
          backupId: record.id,
          id: rewritten.id,
          fingerprint: () => restorer.fingerprint(rewritten),
          managedBecause,
          refusedBecause,
          caution,
        },
        match,
      );
  }
  for (const entry of byKeyLater) {
    const match = claim(byKey.get(entry.key));
    // Into another org, an object's own id may stand in its own data (a hook's endpoint path, an
    // OIDC app's client_id): a creation writes the source's, an update the target's (execution maps
    // it first). Either is the same object.
    const own =
      input.crossOrg && match && entry.record ? new Map([[ownId(entry.backupId), ownId(match.id)]]) : null;
    const ownMapped = own && restorer.fingerprint(restorer.rewrite(entry.record!, own));
    const fingerprint = ownMapped === match?.fingerprint ? ownMapped : entry.fingerprint;
    decide({ ...entry, fingerprint: () => fingerprint }, match);
  }
  plan.creates.sort((a, b) => a - b);
  plan.updates.sort((a, b) => a.position - b.position);
  plan.unchanged.sort((a, b) => a.position - b.position);

  if (prunable)
    for (const resource of live.resources()) {
      if (managedLive.has(resource.id)) continue;
      // A prune limited to some ids (an undo) keeps every other live object: it remains.
      if (!scope.prunes(resource.id)) {
        plan.matched.push(resource);
        continue;
      }
      plan.unmatched.push(resource);
      const record = lacking.get(resource.id);
      if (record) plan.unmatchedRecords.set(resource.id, record);
    }
  return plan;
}

type PlanInput = Parameters<typeof planType>[0];

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The live objects of a type by id, compact: most objects of the largest types (a group's
 * memberships, an app's assignments) have no name, key, status or protection, and are held as
 * their fingerprint alone (a SHA-256 held as 32 one-byte characters rather than 64 hex ones):
 * about 150 bytes an object instead of 250, and 325,000 memberships at 100,000 users.
 */
class LiveIndex {
  private readonly byId = new Map<string, LiveResource | string>();

  add(resource: LiveResource): void {
    const plain =
      resource.name === null &&
      resource.key === null &&
      Object.keys(resource).length === 4 &&
      SHA256_HEX.test(resource.fingerprint);
    this.byId.set(
      resource.id,
      plain ? Buffer.from(resource.fingerprint, 'hex').toString('latin1') : resource,
    );
  }

  /** The object with this id, taken out of the index (undefined when absent or taken before). */
  take(id: string): LiveResource | undefined {
    const held = this.byId.get(id);
    if (held === undefined) return undefined;
    this.byId.delete(id);
    return expand(id, held);
  }

  /** The objects not taken. */
  *resources(): Generator<LiveResource> {
    for (const [id, held] of this.byId) yield expand(id, held);
  }
}

function expand(id: string, held: LiveResource | string): LiveResource {
  if (typeof held !== 'string') return held;
  return { id, name: null, fingerprint: Buffer.from(held, 'latin1').toString('hex'), key: null };
}

/** Whether any backup record of the type is in scope; reads the part only up to the first one. */
async function anyInScope({ snapshot, type, scope }: PlanInput): Promise<boolean> {
  for await (const record of snapshot.readPart(type)) if (scope.includes(record)) return true;
  return false;
}

/** The ids and natural keys, rewritten, of the backup records in scope (for `keepUnmatched`). */
async function wantedIdsAndKeys(input: PlanInput): Promise<{ ids: Set<string>; keys: Set<string> }> {
  const ids = new Set<string>();
  const keys = new Set<string>();
  for await (const record of input.snapshot.readPart(input.type)) {
    if (!input.scope.includes(record)) continue;
    const rewritten = input.restorer.rewrite(record, input.ids);
    ids.add(rewritten.id);
    const key = input.restorer.naturalKey(rewritten);
    if (key !== null) keys.add(key);
  }
  return { ids, keys };
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
    absent: new Map(),
  };
}

/** The object's own id in a record id (`<groupId>:<userId>` -> the user's). */
export function ownId(recordId: string): string {
  return recordId.slice(recordId.lastIndexOf(':') + 1);
}
