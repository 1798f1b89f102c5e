import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { startPeriodicTask } from '../jobs/periodic-task.js';
import { RestoresRepository } from './restores.repository.js';

/**
 * Fails restores whose worker died (DESIGN section 4: a crash mid-way leaves a restore marked
 * failed, with what was applied in its items): running ones silent for BACKUP_STALE_AFTER_SECONDS,
 * on every worker replica each BACKUP_SWEEP_INTERVAL_SECONDS (the backups' settings: the same
 * heartbeat drives both). The UPDATE is conditional, so replicas need no coordination.
 */
@Injectable()
export class StaleRestoreSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StaleRestoreSweeper.name);
  private stop?: () => void;

  constructor(
    private readonly restores: RestoresRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.ROLE === 'api') return;
    this.stop = startPeriodicTask(
      this.config.BACKUP_SWEEP_INTERVAL_SECONDS * 1000,
      () => this.sweep(),
      this.logger,
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /** @returns ids of the restores it failed */
  async sweep(now = new Date()): Promise<string[]> {
    const before = new Date(now.getTime() - this.config.BACKUP_STALE_AFTER_SECONDS * 1000);
    const failed = await this.restores.failStale(
      before,
      'The worker running this restore stopped responding; what was applied is listed in its items. Run it again: a restore is idempotent',
    );
    if (failed.length)
      this.logger.warn(`Marked ${failed.length} stale restore(s) failed: ${failed.join(', ')}`);
    return failed;
  }
}
