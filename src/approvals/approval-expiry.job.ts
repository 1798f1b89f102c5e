import { Injectable, Logger } from '@nestjs/common';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { ApprovalsService } from './approvals.service.js';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'approval-expiry': { now: string };
  }
}

/**
 * The `approval-expiry` job (docs/approvals.md): marks every team's pending requests past their
 * deadline `expired`, audited once each, so the trail says when a request lapsed even if nobody
 * looks. Correctness does not rest on it (a decision refuses an overdue request by itself, and
 * every read expires first). Enqueued every five minutes by the scheduler
 * (src/platform/cron/housekeeping.cron.ts), once per slot whatever the number of replicas.
 */
@Injectable()
export class ApprovalExpiryJob {
  private readonly logger = new Logger(ApprovalExpiryJob.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly approvals: ApprovalsService,
  ) {}

  @OnJob({ queue: 'approval-expiry', expireInSeconds: 600, retryLimit: 2, retryDelay: 30, policy: 'short' })
  async handle(job: Job<'approval-expiry'>): Promise<void> {
    const expired = await this.approvals.expireDue(null, new Date(job.data.now));
    if (expired > 0) this.logger.log(`Expired ${expired} approval request(s)`);
  }

  /**
   * Enqueues the sweep judging by `now`, keyed by its minute.
   * @returns the job id, or null when another replica already enqueued that slot's sweep
   */
  enqueue(now: Date): Promise<string | null> {
    return this.jobs.sendOnce(
      'approval-expiry',
      { now: now.toISOString() },
      `approval-expiry:${now.toISOString().slice(0, 16)}`,
    );
  }
}
