import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApprovalGate } from './approval-gate.js';
import { ApprovalSettingsEntity } from './approval-settings.entity.js';
import { ApprovalSettingsRepository } from './approval-settings.repository.js';
import { ApprovalSettingsService } from './approval-settings.service.js';
import { ApprovalEntity } from './approval.entity.js';
import { ApprovalsRepository } from './approvals.repository.js';

/**
 * The approval gate and the team's setting (docs/approvals.md), imported by the features whose
 * actions it may hold; it imports none of them (the approvals module, which runs approved
 * requests, does).
 */
@Module({
  imports: [TypeOrmModule.forFeature([ApprovalEntity, ApprovalSettingsEntity])],
  providers: [ApprovalGate, ApprovalSettingsService, ApprovalsRepository, ApprovalSettingsRepository],
  exports: [ApprovalGate, ApprovalSettingsService],
})
export class ApprovalGateModule {}
