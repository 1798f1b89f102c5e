import { Injectable, Logger } from '@nestjs/common';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { SchedulesService } from '@app/schedules/schedules.service.js';
import { RestoreDrillsService } from './restore-drills.service.js';

export const WEEKLY_VERIFICATION_QUEUE = 'weekly-verification';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    /** `now`: ISO 8601 instant the run judges its week by */
    'weekly-verification': { now: string };
  }
}

const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of the ISO 8601 week that holds `now`. */
export function isoWeekStart(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - ((now.getUTCDay() + 6) % 7) * DAY_MS);
}

/**
 * The `weekly-verification` job (docs/backups.md "Verification drills": a weekly verification can be switched
 * on per schedule, `verify_weekly`): once a week (src/platform/cron/housekeeping.cron.ts), a drill of
 * the latest completed backup of each connection whose schedule asks for it. Its data carries the
 * `now` it judges by, so a test can move the clock. One connection's failure does not stop the
 * others; a retried run starts no drill twice in a week.
 */
@Injectable()
export class WeeklyVerificationJob {
  private readonly logger = new Logger(WeeklyVerificationJob.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly schedules: SchedulesService,
    private readonly drills: RestoreDrillsService,
  ) {}

  @OnJob({
    queue: WEEKLY_VERIFICATION_QUEUE,
    expireInSeconds: 3600,
    retryLimit: 2,
    retryDelay: 300,
    policy: 'short',
  })
  async handle(job: Job<'weekly-verification'>): Promise<void> {
    const now = new Date(job.data.now);
    const weekStart = isoWeekStart(now);
    let failed: unknown;
    for (const {
      teamId,
      connectionId,
      verifySandboxConnectionId,
    } of await this.schedules.weeklyVerifications()) {
      const sandbox = verifySandboxConnectionId ?? undefined;
      await this.drills
        .startScheduled(teamId, connectionId, weekStart, now, sandbox)
        .catch((error: unknown) => {
          this.logger.warn(`Weekly verification of connection ${connectionId} not started: ${String(error)}`);
          failed = error;
        });
    }
    if (failed) throw failed; // retried: the drills already started are not started again
  }

  /**
   * Enqueues the run judging by `now`, keyed by its ISO week.
   * @returns the job id, or null when another replica already enqueued that week's run
   */
  enqueue(now: Date): Promise<string | null> {
    return this.jobs.sendOnce(
      WEEKLY_VERIFICATION_QUEUE,
      { now: now.toISOString() },
      `weekly-verification:${isoWeekStart(now).toISOString().slice(0, 10)}`,
    );
  }
}
