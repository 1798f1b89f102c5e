import type { ApprovalEntity } from './approval.entity.js';
import type { ApprovalDto } from './dto/approval.dto.js';
import type { ApprovalSettingsDto } from './dto/approval-settings.dto.js';
import type { ApprovalSettingsValues } from './approval-settings.repository.js';

/** A request as the API hands it out (docs/approvals.md). */
export function toApprovalDto(row: ApprovalEntity): ApprovalDto {
  return {
    id: row.id,
    action: row.action,
    what: { type: row.targetType, id: row.targetId, summary: row.summary },
    requester: {
      user_id: row.requestedBy,
      role: row.requesterRole,
      client_id: row.requesterClientId,
      client_name: row.clientName,
    },
    status: row.status,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    body: row.body,
    preview: row.preview,
    decided_by: row.decidedBy,
    decided_at: row.decidedAt?.toISOString() ?? null,
    reason: row.reason,
    executed_at: row.executedAt?.toISOString() ?? null,
    result: row.result,
    error: row.error,
  };
}

/** The settings as the API hands them out. */
export function toApprovalSettingsDto(
  values: ApprovalSettingsValues & { updatedAt: Date | null },
): ApprovalSettingsDto {
  return {
    enabled: values.enabled,
    backup_delete: values.backupDelete,
    connection_delete: values.connectionDelete,
    account_delete: values.accountDelete,
    expiry_hours: values.expiryHours,
    updated_at: values.updatedAt?.toISOString() ?? null,
  };
}
