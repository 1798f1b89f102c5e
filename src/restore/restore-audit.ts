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
 * The audit entry of a restore's lifecycle step (docs/notifications.md): `restore.started` by its caller,
 * `restore.completed` / `restore.partial` / `restore.failed` by the service.
 */
export function restoreEntry(
  action: 'restore.started' | 'restore.completed' | 'restore.partial' | 'restore.failed',
  restore: RestoreFacts,
  details: Record<string, unknown>,
  by: AuditBy = BY_SYSTEM,
): AuditEntry {
  const outcome = action === 'restore.completed' || action === 'restore.started' ? 'success' : 'failure';
  return runEntry('restore', action, outcome, restore, details, by);
}

/**
 * The audit entry of the end of a restore preview run as a job (docs/decisions.md): it read the
 * live org for the preview, or could not.
 */
export function restorePreviewEntry(
  action: 'restore.previewed' | 'restore.preview_failed',
  preview: RestoreFacts,
  details: Record<string, unknown>,
): AuditEntry {
  const outcome = action === 'restore.previewed' ? 'success' : 'failure';
  return runEntry('restore_preview', action, outcome, preview, details, BY_SYSTEM);
}

function runEntry(
  type: 'restore' | 'restore_preview',
  action: string,
  outcome: AuditEntry['outcome'],
  run: RestoreFacts,
  details: Record<string, unknown>,
  by: AuditBy,
): AuditEntry {
  const facts = { connection_id: run.connectionId, backup_id: run.backupId };
  return entryAbout(run.teamId, { type, id: run.id }, action, outcome, { ...facts, ...details }, by);
}

/** Items written, skipped and failed over every type of a restore's summary. */
export function restoreTotals(summary: Record<string, RestoreTypeSummary>): Record<string, number> {
  const totals = { create: 0, update: 0, delete: 0, skip: 0, failed: 0 };
  for (const type of Object.values(summary)) {
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += type[key];
  }
  return totals;
}
