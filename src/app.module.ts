import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './platform/config/app-config.js';
import { ConfigModule } from './platform/config/config.module.js';
import { DatabaseModule } from './platform/database/database.module.js';
import { JobsModule } from './platform/jobs/jobs.module.js';
import { AuditModule } from './audit/audit.module.js';
import { PlansModule } from './plans/plans.module.js';
import { HealthModule } from './platform/health/health.module.js';
import { MetricsModule } from './platform/metrics/metrics.module.js';
import { AuthModule } from './identity/auth/auth.module.js';
import { RateLimitModule } from './common/rate-limit/rate-limit.module.js';
import { TeamsModule } from './identity/teams/teams.module.js';
import { SecurityModule } from './platform/security/security.module.js';
import { ConnectionsModule } from './connections/connections.module.js';
import { BackupsModule } from './backups/backups.module.js';
import { SchedulesModule } from './schedules/schedules.module.js';
import { CronModule } from './platform/cron/cron.module.js';
import { DiffModule } from './diff/diff.module.js';
import { TimelineModule } from './timeline/timeline.module.js';
import { RestoreModule } from './restore/restore.module.js';
import { RestoreDrillsModule } from './drills/restore-drills.module.js';
import { ComplianceModule } from './compliance/compliance.module.js';
import { ExportModule } from './export/export.module.js';
import { ScoresModule } from './scores/scores.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { DriftAlertsModule } from './drift-alerts/drift-alerts.module.js';
import { AccountModule } from './identity/account/account.module.js';
import { NewsletterModule } from './newsletter/newsletter.module.js';
import { MeModule } from './identity/me/me.module.js';
import { ApprovalsModule } from './approvals/approvals.module.js';
import { McpModule } from './mcp/mcp.module.js';

/** The modular monolith (DESIGN section 1): one module per feature over shared infrastructure. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(databaseUrl),
        JobsModule,
        AuditModule,
        PlansModule,
        SecurityModule,
        // Before AuthModule: global guards run in module order, and limits apply before authentication.
        RateLimitModule,
        HealthModule,
        MetricsModule,
        TeamsModule,
        AuthModule,
        ConnectionsModule,
        BackupsModule,
        SchedulesModule,
        CronModule,
        DiffModule,
        TimelineModule,
        RestoreModule,
        RestoreDrillsModule,
        ComplianceModule,
        ExportModule,
        ScoresModule,
        NotificationsModule,
        DriftAlertsModule,
        AccountModule,
        NewsletterModule,
        MeModule,
        ApprovalsModule,
        McpModule,
      ],
    };
  }
}
