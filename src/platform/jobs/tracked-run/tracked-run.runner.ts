import { setMaxListeners } from 'node:events';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import { addLogFields } from '@app/common/log-context/log-context.js';
import { AuditService } from '@app/audit/audit.service.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { TrackedRunEntity } from '@app/platform/database/tracked-run/tracked-run.entity.js';
import type { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';
import type { JobPayloads, QueueName } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { RunAbandonedError } from './run-abandoned.error.js';
import type { RunContext, TrackedRunKind } from './tracked-run-kind.js';

/** The pg-boss facts of the job's attempt (JobWithMetadata). */
export interface JobAttempt {
  /** attempts made before this one */
  retryCount: number;
  retryLimit: number;
}

/** A run just inserted queued, and the job that is to run it. */
export interface QueuedRun<T extends TrackedRunEntity, Q extends QueueName> {
  runs: TrackedRunRepository<T>;
  /** The run's noun in its error message: `backup` */
  noun: string;
  id: string;
  queue: Q;
  data: JobPayloads[Q];
  /** The audit entry of the run failed because its job could not be queued. */
  failedEntry(errorMessage: string): AuditEntry;
}

/** A run's ids for its job's log lines: `backup_id` (by its noun), `team_id`, `connection_id`. */
function runLogFields(noun: string, run: TrackedRunEntity): Record<string, string> {
  const { connectionId } = run as TrackedRunEntity & { connectionId?: unknown };
  return {
    [`${noun.replace(/ /g, '_')}_id`]: run.id,
    team_id: run.teamId,
    ...(typeof connectionId === 'string' ? { connection_id: connectionId } : {}),
  };
}

/**
 * Enqueues and runs tracked runs (DESIGN section 4). A job's run is claimed (a run no longer queued is left
 * alone: taken, deleted, or failed by the stale sweep), heartbeats every BACKUP_HEARTBEAT_SECONDS,
 * runs the kind's work with an abort signal, and settles a failure: an abandoned run is discarded
 * and left as the sweep marked it; otherwise its leftovers are discarded and the job is retried
 * while attempts remain and the kind calls the error retryable, else the run ends `failed` with a
 * safe message, audited in the same transaction.
 */
@Injectable()
export class TrackedRunRunner {
  constructor(
    private readonly jobs: JobsService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Enqueues the job of a run just inserted and records the job's id on the run.
   * @returns the job's id
   * @throws the queue's error, once the run is failed ("The backup could not be queued") and audited
   */
  async enqueue<T extends TrackedRunEntity, Q extends QueueName>(queued: QueuedRun<T, Q>): Promise<string> {
    let jobId: string;
    try {
      jobId = await this.jobs.send(queued.queue, queued.data);
    } catch (error) {
      const errorMessage = `The ${queued.noun} could not be queued`;
      await this.audit.audited(
        (tx) => queued.runs.finish(queued.id, { status: 'failed', errorMessage }, tx),
        (failed) => (failed ? queued.failedEntry(errorMessage) : null),
      );
      throw error;
    }
    await queued.runs.setJobId(queued.id, jobId);
    return jobId;
  }

  /** @throws the work's error when pg-boss is to retry the job */
  async run<T extends TrackedRunEntity>(
    kind: TrackedRunKind<T>,
    id: string,
    attempt: JobAttempt,
  ): Promise<void> {
    const run = await kind.runs.findById(id);
    if (!run || !(await kind.runs.claim(run.id))) return;
    addLogFields(runLogFields(kind.noun, run));
    const logger = new Logger(kind.constructor.name);
    logger.log(`${kind.noun} ${run.id} started (attempt ${attempt.retryCount + 1})`);
    const stop = new AbortController();
    setMaxListeners(0, stop.signal); // each part and each queued request listens: no leak, no cap
    const heartbeat = setInterval(
      () => void kind.runs.heartbeat(run.id).catch(() => {}),
      this.config.BACKUP_HEARTBEAT_SECONDS * 1000,
    );
    try {
      await kind.execute(run, this.contextOf(kind, run, stop.signal, logger));
    } catch (error) {
      await this.settle(kind, run, attempt, error, logger);
    } finally {
      clearInterval(heartbeat);
      stop.abort();
    }
  }

  private contextOf<T extends TrackedRunEntity>(
    kind: TrackedRunKind<T>,
    run: T,
    signal: AbortSignal,
    logger: Logger,
  ): RunContext<T> {
    const started = Date.now();
    return {
      signal,
      progress: async (pct, message, fields) => {
        if (!(await kind.runs.updateProgress(run.id, pct, message, fields)))
          throw new RunAbandonedError('no longer running (failed by the stale sweep); stopping');
      },
      finish: async (outcome, entry) => {
        const done = await this.audit.audited(
          (tx) => kind.runs.finish(run.id, outcome, tx),
          (ended) => (ended ? entry : null),
        );
        if (!done) throw new RunAbandonedError('failed by the stale sweep before it could finish');
        logger.log(`${kind.noun} ${run.id} ${outcome.status}`, {
          status: outcome.status,
          duration_ms: Date.now() - started,
        });
      },
    };
  }

  private async settle<T extends TrackedRunEntity>(
    kind: TrackedRunKind<T>,
    run: T,
    attempt: JobAttempt,
    error: unknown,
    logger: Logger,
  ): Promise<void> {
    if (error instanceof RunAbandonedError) {
      logger.warn(`${kind.noun} ${run.id}: ${error.message}`);
      await this.discard(kind, run, logger);
      return;
    }
    const known = kind.describe(error);
    const message = known ?? kind.internalErrorMessage;
    const what = `${kind.noun} ${run.id} attempt ${attempt.retryCount + 1} failed`;
    if (known === undefined) logger.error(what, error instanceof Error ? error.stack : String(error));
    else logger.warn(`${what}: ${message}`);
    await this.discard(kind, run, logger);
    if (attempt.retryCount < attempt.retryLimit && (kind.retryable?.(error) ?? false)) {
      await kind.runs.updateProgress(run.id, 0, `Retrying after: ${message}`);
      throw error;
    }
    await this.audit.audited(
      (tx) => kind.runs.finish(run.id, { status: 'failed', errorMessage: message }, tx),
      (failed) => (failed ? kind.failedEntry(run, message, error) : null),
    );
  }

  private async discard<T extends TrackedRunEntity>(
    kind: TrackedRunKind<T>,
    run: T,
    logger: Logger,
  ): Promise<void> {
    await kind
      .discard?.(run)
      .catch((error) => logger.error(`${kind.noun} ${run.id} not discarded: ${String(error)}`));
  }
}
