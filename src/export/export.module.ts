import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@app/audit/audit.module.js';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ComplianceModule } from '@app/compliance/compliance.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { RestoreDrillsModule } from '@app/drills/restore-drills.module.js';
import { NotificationsModule } from '@app/notifications/notifications.module.js';
import { RestoreModule } from '@app/restore/restore.module.js';
import { TeamsModule } from '@app/identity/teams/teams.module.js';
import { AuditPackController } from './audit-pack.controller.js';
import { AuditPackService } from './audit-pack.service.js';
import { ReportEntity } from './report.entity.js';
import { ReportExpiryJob } from './report-expiry.job.js';
import { ReportRenderer } from './report-renderer.js';
import { ReportsController } from './reports.controller.js';
import { ReportsRepository } from './reports.repository.js';
import { ReportsService } from './reports.service.js';

/**
 * Spec "Export": PDF reports rendered by Chromium and handed out by signed URL, and the signed
 * ZIP audit pack (docs/export.md).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ReportEntity]),
    AuditModule,
    BackupsModule,
    ComplianceModule,
    ConnectionsModule,
    NotificationsModule,
    RestoreDrillsModule,
    RestoreModule,
    TeamsModule,
  ],
  controllers: [ReportsController, AuditPackController],
  providers: [ReportRenderer, ReportsService, ReportsRepository, ReportExpiryJob, AuditPackService],
  exports: [ReportExpiryJob],
})
export class ExportModule {}
