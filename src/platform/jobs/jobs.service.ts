import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import PgBoss from 'pg-boss';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { DATABASE_URL } from '@app/platform/database/database.module.js';
import type { Job, JobPayloads, QueueName } from './job-payloads.js';
import { reportUnawaitedJobSettleErrors } from './pg-boss-settle.js';

/** SQLSTATE of a connection PostgreSQL ends because it is shutting down (PostgreSQL docs, Appendix A). */
const ADMIN_SHUTDOWN = '57P01';

/** Options of one queue: how long a job may run and how often a failed one is retried. */
export interface QueueOptions {
  expireInSeconds: number;
  retryLimit: number;
  retryDelay: number;
  /** pg-boss queue policy; `short` keeps one queued job per singleton key (needed by `sendOnce`). */
  policy?: 'standard' | 'short';
}

/**
 * pg-boss on the service's own PostgreSQL (DESIGN section 1): durable jobs with retries,
 * picked with SKIP LOCKED by any replica in the `worker` or `all` role.
 */
@Injectable()
export class JobsService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobsService.name);
  private readonly boss: PgBoss;
  private readonly runsWorkers: boolean;
  private readonly pollingIntervalSeconds: number;
  /** This replica's worker of each queue it works: queue name -> pg-boss worker id. */
  private readonly workers = new Map<string, string>();
  private stopping = false;

  constructor(@Inject(DATABASE_URL) databaseUrl: string, @Inject(APP_CONFIG) config: AppConfig) {
    reportUnawaitedJobSettleErrors();
    this.boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 5 });
    this.boss.on('error', (error) => this.onError(error));
    this.runsWorkers = config.ROLE !== 'api';
    this.pollingIntervalSeconds = config.JOB_POLL_SECONDS;
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
  }

  /**
   * Stops pg-boss, giving running jobs up to 10 s, before the app's other shutdown hooks run: the
   * jobs still need the database (TypeORM closes its pool in its own `onApplicationShutdown`).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }

  /**
   * pg-boss's errors are logged as errors, but for PostgreSQL ending a connection (57P01
   * admin_shutdown) while this replica stops: its pool resolves `end()` before every socket is
   * closed, and the embedded cluster stops right after the app (src/main.ts).
   */
  private onError(error: Error): void {
    if (this.stopping && (error as { code?: string }).code === ADMIN_SHUTDOWN) {
      this.logger.debug(`pg-boss while stopping: ${error.message}`);
      return;
    }
    this.logger.error(`pg-boss: ${error.message}`);
  }

  /** Declares a queue (idempotent). Call before `send` or `work`. */
  async ensureQueue(name: QueueName, options: QueueOptions): Promise<void> {
    if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name, { name, ...options });
  }

  /**
   * Enqueues a job and returns its id (the spec's `instanceId` for backups). When this replica
   * works the queue, its worker looks for the job at once instead of at its next poll.
   */
  async send<Q extends QueueName>(
    name: Q,
    data: JobPayloads[Q],
    options: PgBoss.SendOptions = {},
  ): Promise<string> {
    const id = await this.boss.send(name, data, options);
    if (!id) throw new Error(`Job not enqueued on ${name}`);
    this.wake(name);
    return id;
  }

  /**
   * Enqueues a job unless one with the same singleton key is already queued (queues with the
   * `short` policy only: pg-boss ignores the key on standard queues), waking this replica's worker
   * as `send` does.
   * @returns its id, or null when the key was taken (another replica enqueued it).
   */
  async sendOnce<Q extends QueueName>(
    name: Q,
    data: JobPayloads[Q],
    singletonKey: string,
  ): Promise<string | null> {
    const id = await this.boss.send(name, data, { singletonKey });
    if (id) this.wake(name);
    return id;
  }

  /**
   * Enqueues one job per item of `data` through `db`, the caller's open transaction
   * (src/platform/database/transaction.ts `sqlExecutor`): the jobs exist only if it commits. Workers find
   * them at their next poll (JOB_POLL_SECONDS), since none can see them before the commit.
   */
  async sendWithin<Q extends QueueName>(db: PgBoss.Db, name: Q, data: Array<JobPayloads[Q]>): Promise<void> {
    if (data.length > 0)
      await this.boss.insert(
        data.map((item) => ({ name, data: item })),
        { db },
      );
  }

  /** Runs `handler` for each job of the queue, one at a time per replica, in the worker role only. */
  async work<Q extends QueueName>(name: Q, handler: (job: Job<Q>) => Promise<void>): Promise<void> {
    if (!this.runsWorkers) return;
    const worker = await this.boss.work<JobPayloads[Q]>(
      name,
      { batchSize: 1, pollingIntervalSeconds: this.pollingIntervalSeconds, includeMetadata: true },
      async ([job]) => handler(job),
    );
    this.workers.set(name, worker);
  }

  /**
   * Whether this replica's workers are polling their queues (the readiness probe): `not_here` in
   * the `api` role, which runs none; `stopped` before they start and once shutdown began.
   */
  workerState(): 'polling' | 'stopped' | 'not_here' {
    if (!this.runsWorkers) return 'not_here';
    return !this.stopping && this.workers.size > 0 ? 'polling' : 'stopped';
  }

  private wake(name: string): void {
    const worker = this.workers.get(name);
    if (worker !== undefined) this.boss.notifyWorker(worker);
  }
}
