import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { SERVICE_VERSION } from '@app/config/version.js';
import { JobsService } from '@app/jobs/jobs.service.js';
import { OBJECT_STORE } from '@app/storage/storage.module.js';
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

@Injectable()
export class HealthService {
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
   * Readiness (issue 34, docs/operations.md): the database answers, every migration of this build
   * is applied, the object store takes a write, and in the `worker` and `all` roles the job
   * workers poll. Each check has CHECK_TIMEOUT_MS.
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
      run('object store not writable', () => this.probeStore()),
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
