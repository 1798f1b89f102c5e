import { Module } from '@nestjs/common';
import { AuditModule } from '@app/audit/audit.module.js';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ComplianceModule } from '@app/compliance/compliance.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { TeamsModule } from '@app/teams/teams.module.js';
import { ReportRenderer } from './report-renderer.js';
import { ReportsController } from './reports.controller.js';
import { ReportsService } from './reports.service.js';

/** Spec "Export": PDF reports rendered by Chromium and handed out by signed URL (issue 28). */
@Module({
  imports: [AuditModule, BackupsModule, ComplianceModule, ConnectionsModule, TeamsModule],
  controllers: [ReportsController],
  providers: [ReportRenderer, ReportsService],
})
export class ExportModule {}
