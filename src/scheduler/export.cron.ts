import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { APP_CONFIG } from '@app/config/config.module.js';
import type { AppConfig } from '@app/config/app-config.js';
import { ReportExpiryJob } from '@app/export/report-expiry.job.js';

/** The export feature's cron handler (issue 28): thin, UTC, it only enqueues (as BackupsCron). */
@Injectable()
export class ExportCron {
  private readonly runsJobs: boolean;

  constructor(
    private readonly expiry: ReportExpiryJob,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.runsJobs = config.ROLE !== 'api';
  }

  /** Hourly: the removal of the reports whose signed URL expired. */
  @Cron('23 * * * *', { name: 'enqueue-report-expiry', timeZone: 'UTC', waitForCompletion: true })
  async enqueueReportExpiry(): Promise<void> {
    if (this.runsJobs) await this.expiry.enqueue(new Date());
  }
}
