import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { SeverityRule } from '@libs/diff/severity-rule.js';
import { ownId, type PlanDecision } from '@libs/restore/planner.js';
import { type PruneCandidate, previewRestore, type RestorePreviewRow } from '@libs/restore/preview.js';
import type { RestoreSelection } from '@libs/restore/scope.js';
import type { CrossOrgRestorer } from './cross-org-restorer.js';
import { absentNamed } from './absent-references.js';

/** At most this many objects are listed one by one (all are counted in the rows). */
export const MAX_LISTED_OBJECTS = 5000;

/**
 * One object of a restore into another org, as the preview names it: what the restore would do
 * to it in the target (`create`, `update`, `same`), `target_only` (in the target, not in the
 * backup: left alone unless the restore prunes), or `left_alone` (the provider's own object or one
 * the lockout guard protects, with why).
 */
export interface CrossOrgObject {
  resourceType: string;
  /** record id in the backup; null for `target_only` */
  sourceId: string | null;
  /** record id in the target when matched (by natural key or an explicit pair); null for `create` */
  targetId: string | null;
  /** the name after the mapping (a renamed group's new name) */
  name: string | null;
  action: 'create' | 'update' | 'same' | 'target_only' | 'left_alone';
  why?: string;
}

/**
 * A reference of a record the restore writes to an object the target will not have: neither
 * matched there (natural key, explicit pair) nor created by this restore. Written as is, it names
 * nothing in the target (the provider refuses the write, or the reference is dropped): pair it,
 * or restore the object too.
 */
export interface UnmappedReference {
  resourceType: string;
  sourceId: string;
  name: string | null;
  /** the source org's object id it names */
  reference: string;
}

/**
 * What cannot move into the target, named rather than silently dropped: objects left alone (the
 * provider's own objects that differ by org, the target's own API integration under the lockout
 * guard), types the provider's API cannot write, and types the target cannot hold (`unavailable`:
 * it lacks the feature or licence they need, RestoreSupport.unavailable).
 */
export interface CannotMove {
  resourceType: string;
  kind: 'left_alone' | 'not_writable' | 'unavailable';
  why: string;
  /** the objects' names (or ids), at most MAX_NAMED each */
  objects: string[];
  count: number;
}

/** Objects named per CannotMove entry, at most. */
const MAX_NAMED = 50;

/** The dry run of a restore into another org: the usual rows, then object by object. */
export interface CrossOrgPreviewResult {
  rows: RestorePreviewRow[];
  prune: PruneCandidate[];
  objects: CrossOrgObject[];
  /** objects counted, whether listed or not */
  objectsTotal: number;
  unmapped: UnmappedReference[];
  cannotMove: CannotMove[];
}

/**
 * Previews a restore of `snapshot` (another org's backup) into the org `connector` reads, with
 * `restorer` a CrossOrgRestorer: planned as previewRestore plans (it never writes), with every
 * object matched by natural key (planType `crossOrg`) and the id map of those matches carried
 * from type to type as execution carries it, so that what hangs off a matched object (a group's
 * memberships) is matched too. Then every decision is named object by object, with the
 * references that would name nothing in the target (`unmapped`).
 * @throws as previewRestore
 */
export async function previewCrossOrg(input: {
  snapshot: SnapshotReader;
  connector: ProviderConnector;
  restorer: CrossOrgRestorer;
  selection: RestoreSelection;
  severityRules: readonly SeverityRule[];
}): Promise<CrossOrgPreviewResult> {
  const decisions: PlanDecision[] = [];
  const ids = new Map<string, string>();
  const { rows, prune } = await previewRestore({
    ...input,
    crossOrg: true,
    ids,
    observe: (decision) => decisions.push(decision),
  });
  const created = new Set(decisions.filter((d) => d.outcome === 'create').map((d) => ownId(d.backupId)));
  const targetIds = new Set([...ids.values(), ...input.restorer.pairs.values()]);
  /** The provider's own objects the target has no twin of, of the types planned so far (as execution has them). */
  const absent = new Map<string, string>();
  const objects: CrossOrgObject[] = [];
  const unmapped: UnmappedReference[] = [];
  const cannotMove = new Map<string, CannotMove>();
  const cannot = (resourceType: string, kind: CannotMove['kind'], why: string, object: string) => {
    const key = `${resourceType} ${kind} ${why}`;
    const entry = cannotMove.get(key) ?? { resourceType, kind, why, objects: [], count: 0 };
    entry.count += 1;
    if (entry.objects.length < MAX_NAMED) entry.objects.push(object);
    cannotMove.set(key, entry);
  };
  let objectsTotal = rows.reduce((sum, row) => sum + row.pruneCandidates, 0);

  for (const [type, ofType] of groupByType(decisions)) {
    ofType.sort((a, b) => a.position - b.position);
    for (const decision of ofType)
      if (decision.outcome === 'left_alone' && !decision.live && !decision.backupId.includes(':'))
        absent.set(decision.backupId, type);
    const byPosition = new Map(ofType.map((decision) => [decision.position, decision]));
    objectsTotal += ofType.length;
    for await (const { position, record } of input.snapshot.readPositions(type, [...byPosition.keys()])) {
      const decision = byPosition.get(position)!;
      const rewritten = input.restorer.rewrite(record, ids);
      const label = rewritten.name ?? record.id;
      const writing = decision.outcome === 'create' || decision.outcome === 'update';
      const support = input.restorer.support(type);
      // As execution records it: a write the provider's API cannot make is a skip, with why.
      const unwritable = writing && !(decision.outcome === 'create' ? support.create : support.update);
      // As execution does: what names the source's own object the target lacks is left alone.
      const lacking =
        writing && !unwritable ? absentNamed(rewritten, input.restorer.references(rewritten), absent) : null;
      if (lacking) cannot(type, 'left_alone', lacking, label);
      // As execution does: an object left alone is absent in turn for what names it.
      if (lacking && decision.outcome === 'create' && !record.id.includes(':')) absent.set(record.id, type);
      const why = unwritable ? (support.unavailable ?? support.notes.join(' ')) : (lacking ?? decision.why);
      if (unwritable) cannot(type, support.unavailable ? 'unavailable' : 'not_writable', why ?? '', label);
      if (decision.outcome === 'left_alone') cannot(type, 'left_alone', why ?? '', label);
      if (objects.length < MAX_LISTED_OBJECTS)
        objects.push({
          resourceType: type,
          sourceId: record.id,
          targetId: decision.live?.id ?? null,
          name: rewritten.name,
          action: unwritable || lacking ? 'left_alone' : decision.outcome,
          ...(why && { why }),
        });
      if (!writing || unwritable || lacking) continue;
      for (const reference of input.restorer.references(rewritten))
        if (!created.has(reference) && !targetIds.has(reference) && !ids.has(reference))
          unmapped.push({ resourceType: type, sourceId: record.id, name: rewritten.name, reference });
    }
  }
  for (const candidate of prune) {
    // The target's own API integration: left alone whatever the restore asks (lockout guard).
    const why = candidate.protectedBecause;
    if (why) cannot(candidate.resourceType, 'left_alone', why, candidate.name ?? candidate.id);
    if (objects.length < MAX_LISTED_OBJECTS)
      objects.push({
        resourceType: candidate.resourceType,
        sourceId: null,
        targetId: candidate.id,
        name: candidate.name,
        action: 'target_only',
        ...(why && { why }),
      });
  }
  return { rows, prune, objects, objectsTotal, unmapped, cannotMove: [...cannotMove.values()] };
}

function groupByType(decisions: readonly PlanDecision[]): Map<string, PlanDecision[]> {
  const byType = new Map<string, PlanDecision[]>();
  for (const decision of decisions) {
    const ofType = byType.get(decision.type) ?? [];
    ofType.push(decision);
    byType.set(decision.type, ofType);
  }
  return byType;
}
