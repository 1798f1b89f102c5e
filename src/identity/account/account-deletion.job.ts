import { Injectable, Logger } from '@nestjs/common';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { AccountDeletionService } from './account-deletion.service.js';

export const ACCOUNT_DELETION_QUEUE = 'account-deletion';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    /** `now`: ISO 8601 instant the run judges grace periods by */
    'account-deletion': { now: string };
  }
}

/**
 * The `account-deletion` job (docs/account.md): once a day (src/platform/cron/housekeeping.cron.ts), erases the
 * teams whose 30-day grace period ended (spec "Limits": within the following 30 days). Its data carries the
 * `now` it judges by, so a test can move the clock. A failed run is retried, and the next day's run finishes
 * any deletion a crash interrupted.
 */
@Injectable()
export class AccountDeletionJob {
  private readonly logger = new Logger(AccountDeletionJob.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly deletions: AccountDeletionService,
  ) {}

  @OnJob({
    queue: ACCOUNT_DELETION_QUEUE,
    expireInSeconds: 6 * 3600,
    retryLimit: 3,
    retryDelay: 600,
    policy: 'short',
  })
  async handle(job: Job<'account-deletion'>): Promise<void> {
    const deleted = await this.deletions.deleteDue(new Date(job.data.now));
    if (deleted.length > 0) this.logger.log(`Deleted ${deleted.length} team(s) past their grace period`);
  }

  /**
   * Enqueues the run judging by `now`, keyed by its day.
   * @returns the job id, or null when another replica already enqueued that day's run
   */
  enqueue(now: Date): Promise<string | null> {
    return this.jobs.sendOnce(
      ACCOUNT_DELETION_QUEUE,
      { now: now.toISOString() },
      `account-deletion:${now.toISOString().slice(0, 10)}`,
    );
  }
}
