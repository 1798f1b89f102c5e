import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { BackupsModule } from '@app/backups/backups.module.js';
import { SchedulesModule } from '@app/schedules/schedules.module.js';
import { BackupsCron } from './backups.cron.js';

/** The one place `ScheduleModule.forRoot()` is registered (STYLE "Config, data, jobs"), with the cron handlers. */
@Module({
  imports: [ScheduleModule.forRoot(), SchedulesModule, BackupsModule],
  providers: [BackupsCron],
})
export class SchedulerModule {}
