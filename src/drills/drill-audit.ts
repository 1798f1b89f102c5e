import { type AuditBy, type AuditEntry, BY_SYSTEM, entryAbout } from '@app/audit/audit-entry.js';

/** What every audit entry about a drill names. */
export interface DrillFacts {
  id: string;
  teamId: string;
  connectionId: string;
  backupId: string | null;
}

/**
 * The audit entry of a restore drill's step (docs/backups.md "Verification drills"): `drill.started` by its
 * caller, `drill.passed` / `drill.failed` by the service.
 */
export function drillEntry(
  action: 'drill.started' | 'drill.passed' | 'drill.failed',
  drill: DrillFacts,
  details: Record<string, unknown>,
  by: AuditBy = BY_SYSTEM,
): AuditEntry {
  return entryAbout(
    drill.teamId,
    { type: 'restore_drill', id: drill.id },
    action,
    action === 'drill.failed' ? 'failure' : 'success',
    { connection_id: drill.connectionId, backup_id: drill.backupId, ...details },
    by,
  );
}
