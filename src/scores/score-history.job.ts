import { Injectable, Logger } from '@nestjs/common';
import type { RecordedAuditEvent } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { sqlExecutor, type Transaction } from '@app/platform/database/transaction.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { ScoreHistoryService } from './score-history.service.js';

export const SCORE_HISTORY_QUEUE = 'score-history';
export const SCORE_READING_QUEUE = 'score-reading';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    /** `now`: ISO 8601 instant the day's readings are taken at */
    'score-history': { now: string };
    /** the connection whose backup just completed */
    'score-reading': { teamId: string; connectionId: string };
  }
}

/**
 * The score-history jobs (docs/scores.md "History"). `score-history`, once a day
 * (src/platform/cron/housekeeping.cron.ts): a reading of every connection, at most one per connection
 * and UTC day, then the deletion of readings past retention; its data carries the `now` it reads at, so
 * a test can move the clock. `score-reading`: one reading of a connection, enqueued in the transaction of
 * each `backup.completed` event, so the backup never waits for it (one facts query: cheap).
 */
@Injectable()
export class ScoreHistoryJob {
  private readonly logger = new Logger(ScoreHistoryJob.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly history: ScoreHistoryService,
    audit: AuditService,
  ) {
    audit.onRecorded((tx, event) => this.afterBackup(tx, event));
  }

  /**
   * Enqueues the daily run reading at `now`, keyed by its UTC day.
   * @returns the job id, or null when another replica already enqueued that day's run
   */
  enqueue(now: Date): Promise<string | null> {
    return this.jobs.sendOnce(
      SCORE_HISTORY_QUEUE,
      { now: now.toISOString() },
      `score-history:${now.toISOString().slice(0, 10)}`,
    );
  }

  @OnJob({
    queue: SCORE_HISTORY_QUEUE,
    expireInSeconds: 3600,
    retryLimit: 3,
    retryDelay: 300,
    policy: 'short',
  })
  async daily(job: Job<'score-history'>): Promise<void> {
    const now = new Date(job.data.now);
    const stored = await this.history.record('daily', now);
    const pruned = await this.history.prune(now);
    this.logger.log(`Stored ${stored} daily score reading(s), deleted ${pruned} past retention`);
  }

  @OnJob({ queue: SCORE_READING_QUEUE, expireInSeconds: 600, retryLimit: 2, retryDelay: 30 })
  async afterBackupCompleted(job: Job<'score-reading'>): Promise<void> {
    await this.history.record('backup', new Date(), job.data);
  }

  private async afterBackup(tx: Transaction, event: RecordedAuditEvent): Promise<void> {
    const connectionId = event.details?.connection_id;
    if (event.action !== 'backup.completed' || typeof connectionId !== 'string') return;
    await this.jobs.sendWithin(sqlExecutor(tx), SCORE_READING_QUEUE, [
      { teamId: event.teamId, connectionId },
    ]);
  }
}
