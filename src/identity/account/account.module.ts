import { ApprovalGateModule } from '@app/approvals/approval-gate.module.js';
import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AccountDeletionInterceptor } from './account-deletion.interceptor.js';
import { AccountDeletionJob } from './account-deletion.job.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { AccountDeletionsRepository } from './account-deletions.repository.js';
import { AccountExportRepository } from './account-export.repository.js';
import { AccountExportService } from './account-export.service.js';
import { AccountController } from './account.controller.js';
import { TeamPurgeRepository } from './team-purge.repository.js';

/** Account data rights (docs/account.md): the data export and the account's deletion. */
@Module({
  imports: [ApprovalGateModule],
  controllers: [AccountController],
  providers: [
    AccountExportService,
    AccountExportRepository,
    AccountDeletionService,
    AccountDeletionsRepository,
    TeamPurgeRepository,
    AccountDeletionJob,
    { provide: APP_INTERCEPTOR, useClass: AccountDeletionInterceptor },
  ],
  exports: [AccountDeletionJob, AccountDeletionService],
})
export class AccountModule {}
