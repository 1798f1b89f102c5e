import { setMaxListeners } from 'node:events';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ProviderError } from '@libs/providers/provider-errors.js';
import { SnapshotIntegrityError } from '@libs/snapshot/snapshot-errors.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { BackupsService, PreRestoreBackupFailedError } from '@app/backups/backups.service.js';
import { ApiError, NotFoundError } from '@app/common/errors.js';
import type { AppConfig } from '@app/config/app-config.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { Job } from '@app/jobs/job-payloads.js';
import { OnJob } from '@app/jobs/on-job.decorator.js';
import { executeRestore } from './restore-executor.js';
import type { RestoreItem } from './restore-items.js';
import type { RestoreEntity, RestoreTypeSummary } from './restore.entity.js';
import { RestoresRepository } from './restores.repository.js';
import { AuditService } from '@app/audit/audit.service.js';
import { restoreEntry, restoreTotals } from './restore-audit.js';

declare module '@app/jobs/job-payloads.js' {
  interface JobPayloads {
    'restore-run': { restoreId: string };
  }
}

/** The restore left `running` under this worker (the stale sweep failed it): stop writing. */
class RestoreAbandonedError extends Error {
  override readonly name = 'RestoreAbandonedError';
}

/**
 * The `restore-run` job (DESIGN section 6): takes the pre-restore backup, then executes the
 * restore (restore-executor.ts), recording each write as it goes, and ends the restore
 * `completed`, `partial` (some writes failed) or `failed` (it could not go on: the pre-restore
 * backup failed, the credentials were refused, the backup is altered), with what was applied
 * recorded in every case. A job is tried once more only when its worker died before taking the
 * restore; a restore already taken is never run twice by pg-boss (a stale one is failed by the
 * sweep: run it again, it is idempotent).
 */
@Injectable()
export class RestoreRunJob {
  private readonly logger = new Logger(RestoreRunJob.name);

  constructor(
    private readonly restores: RestoresRepository,
    private readonly backups: BackupsService,
    private readonly snapshots: BackupSnapshotsService,
    private readonly connections: ConnectionsService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnJob({ queue: 'restore-run', expireInSeconds: 12 * 3600, retryLimit: 1, retryDelay: 30 })
  async handle(job: Job<'restore-run'>): Promise<void> {
    const restore = await this.restores.findById(job.data.restoreId);
    if (!restore || !(await this.restores.claim(restore.id))) return;
    const abort = new AbortController();
    setMaxListeners(0, abort.signal); // each queued request listens (rate-limit governor): no leak, no cap
    const heartbeat = setInterval(
      () => void this.restores.heartbeat(restore.id).catch(() => {}),
      this.config.BACKUP_HEARTBEAT_SECONDS * 1000,
    );
    try {
      const summary = await this.run(restore, abort.signal);
      const failed = Object.values(summary).some((type) => type.failed > 0);
      const status = failed ? 'partial' : 'completed';
      await this.audit.audited(
        (tx) => this.restores.finish(restore.id, { status, fields: { summary } }, tx),
        (done) =>
          done ? restoreEntry(`restore.${status}`, restore, { items: restoreTotals(summary) }) : null,
      );
    } catch (error) {
      if (error instanceof RestoreAbandonedError) {
        this.logger.warn(`Restore ${restore.id}: ${error.message}`);
        return;
      }
      const message = describe(error);
      if (!(
        error instanceof ProviderError ||
        error instanceof ApiError ||
        error instanceof PreRestoreBackupFailedError
      ))
        this.logger.error(
          `Restore ${restore.id} failed`,
          error instanceof Error ? error.stack : String(error),
        );
      await this.audit.audited(
        (tx) => this.restores.finish(restore.id, { status: 'failed', errorMessage: message }, tx),
        (done) => (done ? restoreEntry('restore.failed', restore, { error: message }) : null),
      );
    } finally {
      clearInterval(heartbeat);
      abort.abort();
    }
  }

  private async run(
    restore: RestoreEntity,
    signal: AbortSignal,
  ): Promise<Record<string, RestoreTypeSummary>> {
    const progress = async (pct: number, message: string, summary?: Record<string, RestoreTypeSummary>) => {
      if (!(await this.restores.updateProgress(restore.id, pct, message, summary && { summary })))
        throw new RestoreAbandonedError('no longer running (failed by the stale sweep); stopping');
    };
    await progress(2, 'Taking the pre-restore backup');
    const preRestoreBackupId = await this.backups.takePreRestoreBackup(
      restore.teamId,
      restore.connectionId,
      restore.requestedBy ?? restore.connection.ownerUserId,
      { signal, onWait: (message) => progress(5, message) },
    );
    await this.restores.setPreRestoreBackup(restore.id, preRestoreBackupId);
    if (restore.backupId === null) throw new NotFoundError('Backup');
    const { reader } = await this.snapshots.open(restore.teamId, restore.backupId);
    // Write scopes of every type the backup holds: a selective restore also writes what hangs off
    // what it restores (docs/restore.md).
    const connector = await this.connections.openConnector(
      restore.teamId,
      restore.connectionId,
      reader.types,
    );
    try {
      await progress(15, 'Reading the live org');
      return await executeRestore({
        snapshot: reader,
        connector,
        restorer: connector.restorer({ activateUsers: restore.activateUsers }),
        selection: {
          types: new Set(restore.resourceTypes ?? reader.types),
          ...(restore.resourceIds ? { ids: new Set(restore.resourceIds) } : {}),
        },
        prune: restore.prune,
        signal,
        sink: {
          record: (items: RestoreItem[]) => this.restores.appendItems(restore.id, items),
          progress,
        },
      });
    } finally {
      await connector.close();
    }
  }
}

/** A message safe to store and show: what the provider or the service said; others stay generic. */
function describe(error: unknown): string {
  if (error instanceof ProviderError) return `The org refused or failed: ${error.message}`;
  if (error instanceof PreRestoreBackupFailedError || error instanceof ApiError) return error.message;
  if (error instanceof SnapshotIntegrityError) return `The backup cannot be read: ${error.message}`;
  return 'Internal error while restoring (see the worker log); what was applied is listed in the items';
}
