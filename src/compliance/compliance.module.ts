import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@app/audit/audit.module.js';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { RestoreHistoryModule } from '@app/restore/restore-history.module.js';
import { ComplianceCheckEntity } from './compliance-check.entity.js';
import { ComplianceCheckJob } from './compliance-check.job.js';
import { ComplianceChecksRepository } from './compliance-checks.repository.js';
import { ComplianceResultEntity } from './compliance-result.entity.js';
import { ComplianceRunEntity } from './compliance-run.entity.js';
import { ComplianceController } from './compliance.controller.js';
import { ComplianceRepository } from './compliance.repository.js';
import { ComplianceService } from './compliance.service.js';

/** Compliance checks of backups against six frameworks (spec "Compliance", docs/compliance.md). */
@Module({
  imports: [
    TypeOrmModule.forFeature([ComplianceResultEntity, ComplianceRunEntity, ComplianceCheckEntity]),
    AuditModule,
    BackupsModule,
    ConnectionsModule,
    RestoreHistoryModule,
  ],
  controllers: [ComplianceController],
  providers: [ComplianceService, ComplianceRepository, ComplianceChecksRepository, ComplianceCheckJob],
  exports: [ComplianceService],
})
export class ComplianceModule {}
