import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { BackupRetentionJob } from '@app/backups/backup-retention.job.js';
import { BackupsService } from '@app/backups/backups.service.js';
import { SchedulesService } from '@app/schedules/schedules.service.js';

/**
 * The service's cron handlers (STYLE: thin, named, UTC, they only enqueue). They tick on every
 * replica that runs jobs (`worker`, `all`; DESIGN section 1) and need no leader: each enqueue
 * is claimed once however many replicas tick. Errors are logged by @nestjs/schedule and the
 * next tick tries again.
 */
@Injectable()
export class BackupsCron {
  private readonly runsJobs: boolean;

  constructor(
    private readonly schedules: SchedulesService,
    private readonly backups: BackupsService,
    private readonly retention: BackupRetentionJob,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.runsJobs = config.ROLE !== 'api';
  }

  /** Each minute: the backups of due schedule slots. */
  @Cron('* * * * *', { name: 'enqueue-due-backups', timeZone: 'UTC', waitForCompletion: true })
  async enqueueDueBackups(): Promise<void> {
    if (this.runsJobs) {
      await this.schedules.enqueueDue(new Date(), (teamId, connectionId) =>
        this.backups.startScheduled(teamId, connectionId),
      );
    }
  }

  /** Hourly: the retention run of that hour. */
  @Cron('17 * * * *', { name: 'enqueue-backup-retention', timeZone: 'UTC', waitForCompletion: true })
  async enqueueBackupRetention(): Promise<void> {
    if (this.runsJobs) await this.retention.enqueue(new Date());
  }
}
