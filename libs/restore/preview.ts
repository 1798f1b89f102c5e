import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { Severity } from '@libs/diff/change-facts.js';
import { rateChange, type SeverityRule } from '@libs/diff/severity-rule.js';
import { ownId, type PlanDecision, planType } from './planner.js';
import { type RestoreSelection, RestoreScope } from './scope.js';
import { mapUnselectedType } from '@libs/restore/cross-org/map-unselected.js';

/** One row of the preview (spec "Shapes of other returned records": Restore preview row). */
export interface RestorePreviewRow {
  resourceType: string;
  /** in the backup, not in the live org (by id or natural key): would be created */
  create: number;
  /** in both, with different content: would be changed into the backup's */
  update: number;
  /** in both, the same, or left alone (the provider manages it, the lockout guard) */
  skip: number;
  /** beyond the spec: in the live org only; removed only by a restore with `prune: true` */
  pruneCandidates: number;
  /**
   * beyond the spec: of `create`, the objects still in the provider's deleted items, which a
   * restore brings back from there with their ids (Entra: `restore_from_deleted`)
   */
  restoreFromDeleted: number;
  /** beyond the spec: what a restore of the type leaves for the admin to do, and what it leaves alone */
  notes: string[];
}

/** A live resource the backup lacks, with the severity its removal would have (docs/severity.md). */
export interface PruneCandidate {
  resourceType: string;
  id: string;
  name: string | null;
  severity: Severity;
  /** why a prune would leave it all the same (the lockout guard: the connection's own integration) */
  protectedBecause?: string;
}

/** At most this many prune candidates are listed (all are counted in the rows). */
export const MAX_LISTED_PRUNE_CANDIDATES = 1000;

/**
 * The dry run of a restore: what it would create, change, leave alone and (with `prune`) delete,
 * type by type, planned exactly as an execution plans (planner.ts), and never writing.
 * One difference is inherent: a preview creates nothing, so records that name an object the
 * restore would re-create are compared as they are in the backup (execution points them at the
 * new id, which may turn a skip into an update).
 * @throws ProviderError from the connector; SnapshotIntegrityError when the snapshot is altered
 */
export async function previewRestore(input: {
  snapshot: SnapshotReader;
  connector: ProviderConnector;
  restorer: ProviderRestorer;
  selection: RestoreSelection;
  /** the provider's severity table, which rates each prune candidate as a removal */
  severityRules: readonly SeverityRule[];
  /** the live org is another org than the backup's (planType `crossOrg`) */
  crossOrg?: boolean;
  /** told each record's decision (planType `observe`) */
  observe?: (decision: PlanDecision) => void;
  /**
   * An id map carried from type to type and grown by each natural-key match, as execution
   * carries it (a preview into another org, where every object is matched so); absent, each
   * type is planned with an empty map.
   */
  ids?: Map<string, string>;
}): Promise<{ rows: RestorePreviewRow[]; prune: PruneCandidate[] }> {
  const { snapshot, restorer, selection } = input;
  const scope = new RestoreScope(selection, restorer);
  const types = restorer.order.filter((type) => snapshot.has(type));
  await restorer.prepare(types);
  const rows: RestorePreviewRow[] = [];
  const prune: PruneCandidate[] = [];
  for (const type of types) {
    if (input.crossOrg && input.ids && !selection.types.has(type))
      await mapUnselectedType({ ...input, type, ids: input.ids });
    if (!selection.types.has(type) && !scope.reachesBeyondTypes()) continue;
    const ids = input.ids ?? new Map<string, string>();
    const plan = await planType({ ...input, type, scope, ids, keepUnmatched: true });
    if (input.ids) for (const [from, to] of plan.rematched) if (!ids.has(from)) ids.set(from, to);
    let restoreFromDeleted = 0;
    for await (const { record } of snapshot.readPositions(type, plan.creates)) {
      scope.follow(ownId(record.id));
      if (restorer.fromDeleted?.(record)) restoreFromDeleted += 1;
    }
    const writes = plan.creates.length + plan.updates.length;
    if (!selection.types.has(type) && writes === 0) continue;
    // As execution does: a sequence (priorities) with one write is written again whole.
    const rewritten = writes > 0 ? plan.unchanged.length : 0;
    rows.push({
      resourceType: type,
      create: plan.creates.length,
      update: plan.updates.length + rewritten,
      skip: plan.skip - rewritten,
      pruneCandidates: plan.unmatched.length,
      restoreFromDeleted,
      notes: [...restorer.support(type).notes, ...plan.notes],
    });
    for (const live of plan.unmatched) {
      if (prune.length >= MAX_LISTED_PRUNE_CANDIDATES) break;
      const before = plan.unmatchedRecords.get(live.id)?.data ?? {};
      const { severity } = rateChange(input.severityRules, {
        resourceType: type,
        action: 'removed',
        before,
        patch: [],
      });
      prune.push({
        resourceType: type,
        id: live.id,
        name: live.name,
        severity,
        ...(live.protectedBecause && { protectedBecause: live.protectedBecause }),
      });
    }
  }
  return { rows, prune };
}
