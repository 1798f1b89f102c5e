import type { BackupRef } from '@app/backups/backup-ref.js';
import { type ChangeAction, SEVERITIES, type Severity } from '@libs/diff/change-facts.js';
import type { ResourceChange } from './snapshot-diff.js';
import type { RecreatedPair } from './recreation.js';

/** One side of a diff, as the summary names it. */
export interface DiffSide {
  backupId: string;
  connectionId: string;
  startedAt: string;
  completedAt: string | null;
}

/** `summary` of a diff response (its inner shape is DESIGN's to decide; docs/diff.md). */
export interface DiffSummary {
  from: DiffSide;
  to: DiffSide;
  /** false when comparing two connections, e.g. production against a preview org */
  sameConnection: boolean;
  total: number;
  byAction: Record<ChangeAction, number>;
  bySeverity: Record<Severity, number>;
  byType: Record<string, Record<ChangeAction, number>>;
  /** types compared */
  resourceTypes: string[];
  /** types asked for (or held by one side) that one of the two backups did not capture */
  notCompared: string[];
  /**
   * objects a restore between the two backups re-created under a new id, the same but for
   * server-owned fields: no change (docs/diff.md "Re-created objects")
   */
  recreated?: RecreatedPair[];
}

const side = (backup: BackupRef): DiffSide => ({
  backupId: backup.id,
  connectionId: backup.connectionId,
  startedAt: backup.startedAt.toISOString(),
  completedAt: backup.completedAt?.toISOString() ?? null,
});

const noActions = (): Record<ChangeAction, number> => ({ added: 0, modified: 0, removed: 0 });

/** Totals of `changes` by action, severity and type. */
export function summarize(
  from: BackupRef,
  to: BackupRef,
  changes: readonly ResourceChange[],
  compared: { resourceTypes: string[]; notCompared: string[] },
): DiffSummary {
  const byAction = noActions();
  const bySeverity = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as Record<
    Severity,
    number
  >;
  const byType: Record<string, Record<ChangeAction, number>> = {};
  for (const change of changes) {
    byAction[change.action] += 1;
    bySeverity[change.severity] += 1;
    (byType[change.resourceType] ??= noActions())[change.action] += 1;
  }
  return {
    from: side(from),
    to: side(to),
    sameConnection: from.connectionId === to.connectionId,
    total: changes.length,
    byAction,
    bySeverity,
    byType,
    ...compared,
  };
}
