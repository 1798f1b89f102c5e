import { ApprovalsModule } from '@app/approvals/approvals.module.js';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { BackupsModule } from '@app/backups/backups.module.js';
import { SchedulesModule } from '@app/schedules/schedules.module.js';
import { AccountModule } from '@app/identity/account/account.module.js';
import { RestoreDrillsModule } from '@app/drills/restore-drills.module.js';
import { ExportModule } from '@app/export/export.module.js';
import { ScoresModule } from '@app/scores/scores.module.js';
import { BackupsCron } from './backups.cron.js';
import { HousekeepingCron } from './housekeeping.cron.js';

/** The one place `ScheduleModule.forRoot()` is registered (STYLE "Config, data, jobs"), with the cron handlers. */
@Module({
  imports: [
    ScheduleModule.forRoot(),
    SchedulesModule,
    BackupsModule,
    AccountModule,
    ExportModule,
    RestoreDrillsModule,
    ApprovalsModule,
    ScoresModule,
  ],
  providers: [BackupsCron, HousekeepingCron],
})
export class CronModule {}
