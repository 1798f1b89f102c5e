import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { AccountDeletionJob } from '@app/account/account-deletion.job.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import type { AppConfig } from '@app/config/app-config.js';

/** The account's cron handler (issue 27): thin, UTC, it only enqueues (as BackupsCron). */
@Injectable()
export class AccountCron {
  private readonly runsJobs: boolean;

  constructor(
    private readonly deletion: AccountDeletionJob,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.runsJobs = config.ROLE !== 'api';
  }

  /** Daily: the account-deletion run of that day (spec "Limits": hard deletion within 30 days of the grace period's end). */
  @Cron('41 3 * * *', { name: 'enqueue-account-deletion', timeZone: 'UTC', waitForCompletion: true })
  async enqueueAccountDeletion(): Promise<void> {
    if (this.runsJobs) await this.deletion.enqueue(new Date());
  }
}
