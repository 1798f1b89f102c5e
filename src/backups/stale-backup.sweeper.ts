import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/app-config.js';
import { BackupsRepository } from './backups.repository.js';
import { HEARTBEAT_SECONDS } from './backup-run.job.js';

/** A running backup not heard of for this many heartbeats has lost its worker. */
const MISSED_HEARTBEATS = 12;

/**
 * Fails backups whose worker died (DESIGN section 4: never `running` forever). Runs on every
 * worker replica each minute; the UPDATE is idempotent, so replicas need no coordination.
 */
@Injectable()
export class StaleBackupSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StaleBackupSweeper.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly backups: BackupsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.ROLE === 'api') return;
    this.timer = setInterval(
      () => void this.sweep().catch((error) => this.logger.error(String(error))),
      60_000,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** @returns ids of the backups it failed. */
  async sweep(now = new Date()): Promise<string[]> {
    const before = new Date(now.getTime() - MISSED_HEARTBEATS * HEARTBEAT_SECONDS * 1000);
    const failed = await this.backups.failStale(
      before,
      'The worker running this backup stopped responding; run it again',
    );
    if (failed.length)
      this.logger.warn(`Marked ${failed.length} stale backup(s) failed: ${failed.join(', ')}`);
    return failed;
  }
}
