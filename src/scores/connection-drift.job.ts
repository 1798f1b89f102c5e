import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { WorkerInterval } from '@app/platform/jobs/worker-interval.js';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import { LogWindowExceededError } from '@libs/providers/provider-errors.js';
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
 * provider's change log since that backup (Okta's System Log, Entra's directory audit) and stores how many
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

  /**
   * Counts the changes logged since `since`. When the log no longer reaches back that far
   * (LogWindowExceededError: Entra keeps 7 or 30 days, Okta 90), counts what it still holds and
   * records from when, and why: readiness then says the count is partial rather than nothing.
   */
  private async check(facts: ConnectionFacts, since: Date): Promise<void> {
    const connector = await this.connections.openConnector(facts.teamId, facts.connectionId);
    try {
      if (!connector.configurationChangesSince) return;
      let countedFrom = since;
      let incompleteReason: string | null = null;
      let counted: Awaited<ReturnType<typeof countChanges>>;
      try {
        counted = await countChanges(connector, since);
      } catch (error) {
        if (!(error instanceof LogWindowExceededError)) throw error;
        // A minute inside the window: its start moves on while the first read is answered.
        countedFrom = new Date(Date.parse(error.heldSince) + 60_000);
        incompleteReason = error.message;
        counted = await countChanges(connector, countedFrom);
      }
      await this.scores.saveDrift({
        connectionId: facts.connectionId,
        teamId: facts.teamId,
        since,
        ...counted,
        checkedAt: new Date(),
        error: null,
        countedFrom,
        incompleteReason,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Drift of connection ${facts.connectionId} not read: ${message}`);
      // A reading since this backup keeps its counts; without one (the log never read since it,
      // e.g. a permission the connection lacks), readiness shows no counted change and why.
      if (facts.drift?.since.getTime() === since.getTime())
        await this.scores.markDriftFailed(facts.connectionId, message);
      else
        await this.scores.saveDrift({
          connectionId: facts.connectionId,
          teamId: facts.teamId,
          since,
          changes: 0,
          bySeverity: {},
          checkedAt: new Date(),
          error: message,
          countedFrom: since,
          incompleteReason: null,
        });
    } finally {
      await connector.close();
    }
  }
}

/** The configuration changes `connector`'s audit log records since `since`, by severity. */
async function countChanges(
  connector: ProviderConnector,
  since: Date,
): Promise<{ changes: number; bySeverity: Record<string, number> }> {
  const bySeverity: Record<string, number> = {};
  let changes = 0;
  for await (const change of connector.configurationChangesSince!(since.toISOString())) {
    changes++;
    bySeverity[change.severity] = (bySeverity[change.severity] ?? 0) + 1;
  }
  return { changes, bySeverity };
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
