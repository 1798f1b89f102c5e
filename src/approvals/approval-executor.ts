import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { BackupsService } from '@app/backups/backups.service.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { AccountDeletionService } from '@app/identity/account/account-deletion.service.js';
import type { RunRestoreDto } from '@app/restore/dto/run-restore.dto.js';
import { RestoreService } from '@app/restore/restore.service.js';
import { ApprovalSettingsService } from './approval-settings.service.js';
import type { ApprovalEntity } from './approval.entity.js';
import type { UpdateApprovalSettingsDto } from './dto/approval-settings.dto.js';

/**
 * Runs an approved request exactly as its requester's call would have run (docs/approvals.md):
 * the same service method, the same body, as the requester (their role and client when they
 * asked), with `approvalId` set so the gate lets it through, and the approver's origin.
 */
@Injectable()
export class ApprovalExecutor {
  constructor(
    private readonly restores: RestoreService,
    private readonly backups: BackupsService,
    private readonly connections: ConnectionsService,
    private readonly deletions: AccountDeletionService,
    private readonly settings: ApprovalSettingsService,
  ) {}

  /**
   * @returns what the call answered (e.g. `{ restoreId, status }`), stored with the request
   * @throws whatever the feature throws (a restore already running: 409 `restore_in_progress`)
   */
  async run(approval: ApprovalEntity, approver: Actor): Promise<Record<string, unknown>> {
    const requester: Actor = {
      teamId: approval.teamId,
      userId: approval.requestedBy,
      role: approval.requesterRole,
      ...(approval.requesterClientId ? { clientId: approval.requesterClientId } : {}),
      approvalId: approval.id,
      origin: approver.origin,
    };
    const target = approval.targetId ?? '';
    switch (approval.action) {
      case 'restore':
        return { ...(await this.restores.run(requester, approval.body as unknown as RunRestoreDto)) };
      case 'backup_delete':
        await this.backups.delete(requester, target);
        return { ok: true, backupId: target };
      case 'connection_delete':
        await this.connections.remove(requester, target);
        return { ok: true, connectionId: target };
      case 'account_delete':
        return { ...(await this.deletions.schedule(requester)) };
      case 'settings':
        return { ...(await this.settings.update(requester, approval.body as UpdateApprovalSettingsDto)) };
    }
  }
}
