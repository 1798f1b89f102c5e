import { type AuditBy, type AuditEntry, BY_SYSTEM, entryAbout } from '@app/audit/audit-entry.js';
import type { RestoreTypeSummary } from '@libs/restore/restore-types.js';

/** What every audit entry about a restore names. */
export interface RestoreFacts {
  id: string;
  teamId: string;
  connectionId: string;
  backupId: string | null;
}

/**
 * The audit entry of a restore's lifecycle step (issue 25): `restore.started` by its caller,
 * `restore.completed` / `restore.partial` / `restore.failed` by the service.
 */
export function restoreEntry(
  action: 'restore.started' | 'restore.completed' | 'restore.partial' | 'restore.failed',
  restore: RestoreFacts,
  details: Record<string, unknown>,
  by: AuditBy = BY_SYSTEM,
): AuditEntry {
  const outcome = action === 'restore.completed' || action === 'restore.started' ? 'success' : 'failure';
  const facts = { connection_id: restore.connectionId, backup_id: restore.backupId };
  return entryAbout(
    restore.teamId,
    { type: 'restore', id: restore.id },
    action,
    outcome,
    { ...facts, ...details },
    by,
  );
}

/** Items written, skipped and failed over every type of a restore's summary. */
export function restoreTotals(summary: Record<string, RestoreTypeSummary>): Record<string, number> {
  const totals = { create: 0, update: 0, delete: 0, skip: 0, failed: 0 };
  for (const type of Object.values(summary)) {
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += type[key];
  }
  return totals;
}
