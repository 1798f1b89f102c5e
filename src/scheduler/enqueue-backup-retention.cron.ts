import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/app-config.js';
import { BackupRetentionJob } from '../backups/backup-retention.job.js';

/** Hourly, enqueues the retention job on replicas that run jobs; the job's singleton key keeps it to one per hour. */
@Injectable()
export class EnqueueBackupRetentionCron {
  private readonly runsJobs: boolean;

  constructor(
    private readonly retention: BackupRetentionJob,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.runsJobs = config.ROLE !== 'api';
  }

  @Cron('17 * * * *', { name: 'enqueue-backup-retention', timeZone: 'UTC', waitForCompletion: true })
  async enqueueBackupRetention(): Promise<void> {
    if (this.runsJobs) await this.retention.enqueue(new Date());
  }
}
