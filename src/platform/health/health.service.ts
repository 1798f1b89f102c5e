import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { SERVICE_VERSION } from '@app/platform/config/version.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { HealthRepository } from './health.repository.js';

export interface HealthStatus {
  status: 'ok';
  /** Seconds since this process started. */
  uptime: number;
  version: string;
}

/** What /readyz checked: `ok`, or (workers only) `not_here` in the `api` role. */
export interface ReadinessStatus {
  status: 'ready';
  checks: { database: 'ok'; migrations: 'ok'; object_store: 'ok'; workers: 'ok' | 'not_here' };
}

/** A readiness check taking longer than this fails (a stalled database, an unreachable bucket). */
const CHECK_TIMEOUT_MS = 3000;

/** Where the readiness probe writes its object; removed right after (docs/operations.md). */
const PROBE_PREFIX = 'probes/readyz/';

/**
 * How long one object-store probe answers for /readyz, milliseconds. Each probe is a billed PUT,
 * LIST and DELETE on S3; an orchestrator probes every 10 s by default (Kubernetes
 * `periodSeconds`), so 5 s keeps the answer fresh while calls in between, and concurrent ones,
 * share one probe.
 */
export const STORE_PROBE_TTL_MS = 5_000;

@Injectable()
export class HealthService {
  /** The last object-store probe (settled or in flight) and when it started. */
  private storeProbe: { startedAt: number; result: Promise<void> } | undefined;

  constructor(
    private readonly database: HealthRepository,
    private readonly jobs: JobsService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  /** @throws ServiceUnavailableException (503) when PostgreSQL, which carries the job queue, does not answer. */
  async check(): Promise<HealthStatus> {
    try {
      await this.database.ping();
    } catch {
      throw new ServiceUnavailableException('Database unreachable');
    }
    return { status: 'ok', uptime: Math.round(process.uptime()), version: SERVICE_VERSION };
  }

  /**
   * Readiness (docs/operations.md): the database answers, every migration of this build
   * is applied, the object store takes a write (probed at most once per STORE_PROBE_TTL_MS), and
   * in the `worker` and `all` roles the job workers poll. Each check has CHECK_TIMEOUT_MS.
   * /readyz is also rate-limited per client IP (RATE_LIMIT_RULES `probes`).
   * @throws ServiceUnavailableException (503, code `not_ready`) naming every check that failed
   */
  async ready(): Promise<ReadinessStatus> {
    const workers = this.jobs.workerState();
    const failed: string[] = [];
    const run = async (name: string, check: () => Promise<void>): Promise<void> => {
      try {
        await withTimeout(check());
      } catch {
        failed.push(name);
      }
    };
    await Promise.all([
      run('database unreachable', () => this.database.ping()),
      run('migrations not applied', async () => {
        if ((await this.database.pendingMigrations()).length > 0) throw new Error('pending');
      }),
      run('object store not writable', () => this.recentStoreProbe()),
    ]);
    if (workers === 'stopped') failed.push('workers not polling');
    if (failed.length > 0)
      throw new ServiceUnavailableException({
        error: `Not ready: ${failed.sort().join(', ')}`,
        code: 'not_ready',
      });
    return {
      status: 'ready',
      checks: {
        database: 'ok',
        migrations: 'ok',
        object_store: 'ok',
        workers: workers === 'polling' ? 'ok' : 'not_here',
      },
    };
  }

  /** The store probe started within STORE_PROBE_TTL_MS (its outcome, or the one in flight), else a new one. */
  private recentStoreProbe(): Promise<void> {
    const now = Date.now();
    if (!this.storeProbe || now - this.storeProbe.startedAt >= STORE_PROBE_TTL_MS) {
      const result = withTimeout(this.probeStore());
      result.catch(() => undefined); // read by every caller within the TTL
      this.storeProbe = { startedAt: now, result };
    }
    return this.storeProbe.result;
  }

  /** Writes one small object and deletes it (a key of its own per probe: replicas do not collide). */
  private async probeStore(): Promise<void> {
    const key = `${PROBE_PREFIX}${randomUUID()}`;
    await this.store.put(key, Buffer.from('ready'));
    await this.store.deletePrefix(key);
  }
}

function withTimeout(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
