import { Inject, Injectable } from '@nestjs/common';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { AuditService } from '@app/audit/audit.service.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import type { AppConfig } from '@app/config/app-config.js';
import { WorkerInterval } from '@app/jobs/worker-interval.js';
import { OBJECT_STORE } from '@app/storage/storage.module.js';
import { backupEntry } from './backup-audit.js';
import { BackupsRepository } from './backups.repository.js';

/**
 * Fails backups whose worker died (DESIGN section 4: never `running` forever) and deletes what
 * they had stored, so a failed backup leaves no objects. Runs on every worker replica each
 * BACKUP_SWEEP_INTERVAL_SECONDS; a backup is stale when its heartbeat is older than
 * BACKUP_STALE_AFTER_SECONDS. The UPDATE is conditional and idempotent, so replicas need no
 * coordination. What happens to the dead worker's pg-boss job: docs/decisions.md "Crash safety".
 */
@Injectable()
export class StaleBackupSweeper extends WorkerInterval {
  constructor(
    private readonly backups: BackupsRepository,
    private readonly audit: AuditService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(config, config.BACKUP_SWEEP_INTERVAL_SECONDS * 1000);
  }

  protected tick(): Promise<string[]> {
    return this.sweep();
  }

  /**
   * Fails the backups not heard of since `now` minus the stale window, then deletes their objects
   * (after the UPDATE, never before: a worker that is only slow, not dead, must not lose the
   * objects of a backup that can still complete).
   * @returns ids of the backups it failed.
   */
  async sweep(now = new Date()): Promise<string[]> {
    const before = new Date(now.getTime() - this.config.BACKUP_STALE_AFTER_SECONDS * 1000);
    const error = 'The worker running this backup stopped responding; run it again';
    const stale = await this.audit.audited(
      (tx) => this.backups.failStale(before, error, tx),
      (rows) => rows.map((row) => backupEntry('backup.failed', { ...row, triggeredBy: null }, { error })),
    );
    const failed = stale.map((row) => row.id);
    if (!failed.length) return failed;
    this.logger.warn(`Marked ${failed.length} stale backup(s) failed: ${failed.join(', ')}`);
    for (const id of failed) {
      const backup = await this.backups.findById(id);
      if (!backup) continue;
      await this.store
        .deletePrefix(backup.storageKey)
        .catch((error) => this.logger.error(`Objects of failed backup ${id} not deleted: ${String(error)}`));
    }
    return failed;
  }
}
