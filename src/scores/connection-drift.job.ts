import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { WorkerInterval } from '@app/platform/jobs/worker-interval.js';
import type { ConnectionFacts } from './scores.repository.js';
import { ScoresRepository } from './scores.repository.js';

export const CONNECTION_DRIFT_QUEUE = 'connection-drift';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'connection-drift': Record<string, never>;
  }
}

/**
 * The `connection-drift` job: for every connection with a completed backup, reads the
 * provider's change log since that backup (Okta's System Log) and stores how many
 * configuration changes it records, by severity. Readiness reads what it stored.
 */
@Injectable()
export class ConnectionDriftJob {
  private readonly logger = new Logger(ConnectionDriftJob.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly scores: ScoresRepository,
    private readonly connections: ConnectionsService,
  ) {}

  /** Enqueues the run of the slot of `intervalMs` that holds `now`, once however many replicas tick. */
  enqueue(now: Date, intervalMs: number): Promise<string | null> {
    return this.jobs.sendOnce(CONNECTION_DRIFT_QUEUE, {}, `drift:${Math.floor(now.getTime() / intervalMs)}`);
  }

  /** Reads the drift of every connection that has a completed backup, one after the other. */
  @OnJob({
    queue: CONNECTION_DRIFT_QUEUE,
    expireInSeconds: 3600,
    retryLimit: 1,
    retryDelay: 60,
    policy: 'short',
  })
  async checkAll(): Promise<void> {
    for (const facts of await this.scores.facts(null)) {
      if (facts.lastBackupAt) await this.check(facts, facts.lastBackupAt);
    }
  }

  private async check(facts: ConnectionFacts, since: Date): Promise<void> {
    const connector = await this.connections.openConnector(facts.teamId, facts.connectionId);
    try {
      if (!connector.configurationChangesSince) return;
      const bySeverity: Record<string, number> = {};
      let changes = 0;
      for await (const change of connector.configurationChangesSince(since.toISOString())) {
        changes++;
        bySeverity[change.severity] = (bySeverity[change.severity] ?? 0) + 1;
      }
      await this.scores.saveDrift({
        connectionId: facts.connectionId,
        teamId: facts.teamId,
        since,
        changes,
        bySeverity,
        checkedAt: new Date(),
        error: null,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Drift of connection ${facts.connectionId} not read: ${message}`);
      await this.scores.markDriftFailed(facts.connectionId, message);
    } finally {
      await connector.close();
    }
  }
}

/** The drift job's timer: every DRIFT_CHECK_INTERVAL_SECONDS on each worker replica, enqueued once per slot. */
@Injectable()
export class ConnectionDriftTimer extends WorkerInterval {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly drift: ConnectionDriftJob,
  ) {
    super(config, config.DRIFT_CHECK_INTERVAL_SECONDS * 1000);
  }

  protected tick(): Promise<unknown> {
    return this.drift.enqueue(new Date(), this.config.DRIFT_CHECK_INTERVAL_SECONDS * 1000);
  }
}
