import { type AuditEntry, BY_SYSTEM, entryAbout } from '@app/audit/audit-entry.js';

/** What every audit entry about a compliance check run as a job names. */
export interface ComplianceCheckFacts {
  id: string;
  teamId: string;
  connectionId: string;
  backupId: string | null;
}

/**
 * The audit entry of the end of a compliance check run as a job (docs/decisions.md), by the
 * service: `compliance.checked` as a check answered in the request records it, or
 * `compliance.check_failed`.
 */
export function complianceCheckEntry(
  action: 'compliance.checked' | 'compliance.check_failed',
  check: ComplianceCheckFacts,
  details: Record<string, unknown>,
): AuditEntry {
  const outcome = action === 'compliance.checked' ? 'success' : 'failure';
  const facts = { connection_id: check.connectionId, backup_id: check.backupId };
  return entryAbout(
    check.teamId,
    { type: 'compliance_check', id: check.id },
    action,
    outcome,
    { ...facts, ...details },
    BY_SYSTEM,
  );
}
