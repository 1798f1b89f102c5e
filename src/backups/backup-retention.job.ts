import { Injectable, Logger } from '@nestjs/common';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { BackupsService } from './backups.service.js';

export const BACKUP_RETENTION_QUEUE = 'backup-retention';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'backup-retention': Record<string, never>;
  }
}

/**
 * The `backup-retention` job: deletes backups past their connection's retention, its schedule's
 * `retention_days` and `retention_count` bounded by the team's plan (spec "Limits", docs/backups.md
 * "Retention"), and the objects failed backups left while the object store was down
 * (BackupRunJob.discard).
 * Enqueued hourly by the scheduler, once per hour whatever the number of replicas.
 */
@Injectable()
export class BackupRetentionJob {
  private readonly logger = new Logger(BackupRetentionJob.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly backups: BackupsService,
  ) {}

  @OnJob({
    queue: BACKUP_RETENTION_QUEUE,
    expireInSeconds: 3600,
    retryLimit: 2,
    retryDelay: 60,
    policy: 'short',
  })
  async handle(): Promise<void> {
    const deleted = await this.backups.deleteExpired(new Date());
    if (deleted > 0) this.logger.log(`Deleted ${deleted} backup(s) past retention`);
    const cleaned = await this.backups.discardLeftovers();
    if (cleaned > 0) this.logger.log(`Deleted the objects ${cleaned} failed backup(s) had left`);
  }

  /**
   * Enqueues the run of the hour that contains `now`, keyed by that hour.
   * @returns the job id, or null when another replica already enqueued this hour's run.
   */
  enqueue(now: Date): Promise<string | null> {
    const hour = new Date(now);
    hour.setUTCMinutes(0, 0, 0);
    return this.jobs.sendOnce(BACKUP_RETENTION_QUEUE, {}, `retention:${hour.toISOString()}`);
  }
}
