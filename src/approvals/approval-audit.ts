import { type AuditBy, type AuditEntry, entryAbout } from '@app/audit/audit-entry.js';
import type { ApprovalEntity } from './approval.entity.js';

/** The steps of a request's life in the audit trail (docs/approvals.md). */
export type ApprovalStep =
  | 'approval.requested'
  | 'approval.approved'
  | 'approval.rejected'
  | 'approval.expired'
  | 'approval.executed'
  | 'approval.execution_failed';

/**
 * The audit entry of one step of `approval`: its target is the request (`approval`), and its
 * details say what it holds and who asked, so that notifications (approvers, not the requester)
 * and the trail read it alone.
 */
export function approvalEntry(
  step: ApprovalStep,
  approval: ApprovalEntity,
  by: AuditBy,
  details: Record<string, unknown> = {},
): AuditEntry {
  const outcome = step === 'approval.execution_failed' ? 'failure' : 'success';
  return entryAbout(
    approval.teamId,
    { type: 'approval', id: approval.id },
    step,
    outcome,
    {
      action: approval.action,
      target_type: approval.targetType,
      target_id: approval.targetId,
      summary: approval.summary,
      requested_by: approval.requestedBy,
      ...(approval.clientName ? { client_name: approval.clientName } : {}),
      ...details,
    },
    by,
  );
}
