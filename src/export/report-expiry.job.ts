import { Injectable, Logger } from '@nestjs/common';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { ReportsService } from './reports.service.js';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'report-expiry': { now: string };
  }
}

/**
 * The `report-expiry` job (docs/export.md): removes the stored PDFs whose signed URL has expired
 * (REPORT_URL_TTL), object then row. Enqueued hourly by the scheduler (src/platform/cron/housekeeping.cron.ts),
 * once per hour whatever the number of replicas; its data carries the `now` it judges by. A run
 * that fails half-way is retried, and the next hour's finishes what is left.
 */
@Injectable()
export class ReportExpiryJob {
  private readonly logger = new Logger(ReportExpiryJob.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly reports: ReportsService,
  ) {}

  @OnJob({ queue: 'report-expiry', expireInSeconds: 3600, retryLimit: 2, retryDelay: 60, policy: 'short' })
  async handle(job: Job<'report-expiry'>): Promise<void> {
    const removed = await this.reports.removeExpired(new Date(job.data.now));
    if (removed > 0) this.logger.log(`Removed ${removed} expired report(s)`);
  }

  /**
   * Enqueues the run judging by `now`, keyed by its hour.
   * @returns the job id, or null when another replica already enqueued that hour's run
   */
  enqueue(now: Date): Promise<string | null> {
    return this.jobs.sendOnce(
      'report-expiry',
      { now: now.toISOString() },
      `report-expiry:${now.toISOString().slice(0, 13)}`,
    );
  }
}
