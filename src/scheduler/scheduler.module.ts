import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { SchedulesModule } from '../schedules/schedules.module.js';
import { BackupsModule } from '../backups/backups.module.js';
import { EnqueueBackupRetentionCron } from './enqueue-backup-retention.cron.js';
import { EnqueueDueBackupsCron } from './enqueue-due-backups.cron.js';

/** The one place `ScheduleModule.forRoot()` is registered (STYLE "Config, data, jobs"), with the cron handlers. */
@Module({
  imports: [ScheduleModule.forRoot(), SchedulesModule, BackupsModule],
  providers: [EnqueueDueBackupsCron, EnqueueBackupRetentionCron],
})
export class SchedulerModule {}
