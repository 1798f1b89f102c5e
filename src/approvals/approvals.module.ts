import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { AccountModule } from '@app/identity/account/account.module.js';
import { RestoreModule } from '@app/restore/restore.module.js';
import { ApprovalExecutor } from './approval-executor.js';
import { ApprovalExpiryJob } from './approval-expiry.job.js';
import { ApprovalGateModule } from './approval-gate.module.js';
import { ApprovalSettingsController } from './approval-settings.controller.js';
import { ApprovalEntity } from './approval.entity.js';
import { ApprovalsController } from './approvals.controller.js';
import { ApprovalsRepository } from './approvals.repository.js';
import { ApprovalsService } from './approvals.service.js';

/**
 * Two-person approval (docs/approvals.md): the requests' API, and running an approved one
 * through the feature that was asked (restore, backups, connections, account). The gate the
 * features consult is ApprovalGateModule's.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ApprovalEntity]),
    ApprovalGateModule,
    RestoreModule,
    BackupsModule,
    ConnectionsModule,
    AccountModule,
  ],
  controllers: [ApprovalsController, ApprovalSettingsController],
  providers: [ApprovalsService, ApprovalsRepository, ApprovalExecutor, ApprovalExpiryJob],
  exports: [ApprovalsService, ApprovalExpiryJob],
})
export class ApprovalsModule {}
