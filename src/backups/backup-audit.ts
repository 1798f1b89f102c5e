import { type AuditBy, type AuditEntry, BY_SYSTEM, entryAbout } from '@app/audit/audit-entry.js';
import type { BackupEntity, BackupTrigger } from './backup.entity.js';

/** What every audit entry about a backup names: its connection, and what started it. */
export interface BackupFacts {
  id: string;
  teamId: string;
  connectionId: string;
  /** The connection's name, else its org URL, for the notification's text (unknown to the stale sweep). */
  org?: string;
  triggeredBy: BackupTrigger | null;
}

/**
 * The audit entry of a backup's lifecycle step (docs/notifications.md): `backup.started` by its caller,
 * `backup.completed` / `backup.failed` by the service (or its schedule), `backup.deleted`.
 * @param by who acted; by default the schedule for a scheduled backup, else the service
 */
export function backupEntry(
  action: 'backup.started' | 'backup.completed' | 'backup.failed' | 'backup.deleted',
  backup: BackupFacts,
  details: Record<string, unknown>,
  by: AuditBy = backup.triggeredBy === 'schedule' ? { actor: { type: 'schedule', id: null } } : BY_SYSTEM,
): AuditEntry {
  const facts = {
    connection_id: backup.connectionId,
    ...(backup.org ? { org: backup.org } : {}),
    ...(backup.triggeredBy ? { triggered_by: backup.triggeredBy } : {}),
  };
  const outcome = action === 'backup.failed' ? 'failure' : 'success';
  return entryAbout(
    backup.teamId,
    { type: 'backup', id: backup.id },
    action,
    outcome,
    { ...facts, ...details },
    by,
  );
}

/** The audit facts of a backup row loaded with its connection. */
export function factsOf(backup: BackupEntity): BackupFacts {
  return {
    id: backup.id,
    teamId: backup.teamId,
    connectionId: backup.connectionId,
    org: backup.connection.orgName ?? backup.connection.orgUrl,
    triggeredBy: backup.triggeredBy,
  };
}
