import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config/app-config.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import { WorkerInterval } from '@app/jobs/worker-interval.js';
import { RestoresRepository } from './restores.repository.js';
import { AuditService } from '@app/audit/audit.service.js';
import { restoreEntry } from './restore-audit.js';

/**
 * Fails restores whose worker died (DESIGN section 4: a crash mid-way leaves a restore marked
 * failed, with what was applied in its items): running ones silent for BACKUP_STALE_AFTER_SECONDS,
 * on every worker replica each BACKUP_SWEEP_INTERVAL_SECONDS (the backups' settings: the same
 * heartbeat drives both). The UPDATE is conditional, so replicas need no coordination.
 */
@Injectable()
export class StaleRestoreSweeper extends WorkerInterval {
  constructor(
    private readonly restores: RestoresRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(config, config.BACKUP_SWEEP_INTERVAL_SECONDS * 1000);
  }

  protected tick(): Promise<string[]> {
    return this.sweep();
  }

  /** @returns ids of the restores it failed */
  async sweep(now = new Date()): Promise<string[]> {
    const before = new Date(now.getTime() - this.config.BACKUP_STALE_AFTER_SECONDS * 1000);
    const error =
      'The worker running this restore stopped responding; what was applied is listed in its items. Run it again: a restore is idempotent';
    const stale = await this.audit.audited(
      (tx) => this.restores.failStale(before, error, tx),
      (rows) => rows.map((row) => restoreEntry('restore.failed', row, { error })),
    );
    const failed = stale.map((row) => row.id);
    if (failed.length)
      this.logger.warn(`Marked ${failed.length} stale restore(s) failed: ${failed.join(', ')}`);
    return failed;
  }
}
