import { Injectable } from '@nestjs/common';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { NotFoundError } from '@app/common/errors.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { type RunContext, TrackedRun } from '@app/platform/jobs/tracked-run/tracked-run-kind.js';
import { describeBackupReadFailure, TrackedRunJob } from '@app/platform/jobs/tracked-run/tracked-run-job.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { restorePreviewEntry } from './restore-audit.js';
import type { RestorePreviewEntity } from './restore-preview.entity.js';
import { RestorePreviewer } from './restore-previewer.js';
import { RestorePreviewsRepository } from './restore-previews.repository.js';
import { RestoreUndo } from './undo/restore-undo.js';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'restore-preview': { previewId: string };
  }
}

/**
 * The `restore-preview` job (docs/decisions.md "The restore preview stays synchronous by
 * default"): reads the live org for the preview of a large backup outside the request, and
 * stores the preview in the run for the client to poll. Read-only, so a job whose worker died
 * before taking it is tried again; one taken and abandoned is failed by the stale sweep.
 */
@TrackedRun()
@Injectable()
export class RestorePreviewJob extends TrackedRunJob<RestorePreviewEntity, RestorePreviewsRepository> {
  readonly noun = 'restore preview';
  readonly internalErrorMessage = 'Internal error while reading the live org (see the worker log)';
  readonly staleMessage = 'The worker reading the live org stopped responding; ask for the preview again';

  constructor(
    runner: TrackedRunRunner,
    runs: RestorePreviewsRepository,
    private readonly snapshots: BackupSnapshotsService,
    private readonly previewer: RestorePreviewer,
    private readonly undo: RestoreUndo,
  ) {
    super(runner, runs);
  }

  @OnJob({ queue: 'restore-preview', expireInSeconds: 2 * 3600, retryLimit: 1, retryDelay: 10 })
  handle(job: Job<'restore-preview'>): Promise<void> {
    return this.start(job.data.previewId, job);
  }

  async execute(run: RestorePreviewEntity, context: RunContext<RestorePreviewEntity>): Promise<void> {
    if (run.backupId === null) throw new NotFoundError('Backup');
    await context.progress(10, 'Reading the live org');
    if (run.undo) {
      // An undo's dry run (GET /api/restore/undo with Prefer: respond-async).
      const undoResult = await this.undo.previewInTeam(run.teamId, run.undo);
      await context.finish(
        { status: 'completed', fields: { undoResult } },
        restorePreviewEntry('restore.previewed', run, { undo_changes: undoResult.total }),
      );
      return;
    }
    const opened = await this.snapshots.open(run.teamId, run.backupId);
    const result = await this.previewer.preview(
      opened,
      {
        types: new Set(run.resourceTypes),
        ...(run.resourceIds ? { ids: new Set(run.resourceIds) } : {}),
      },
      { activateUsers: run.activateUsers, restoreOptions: run.options },
    );
    const rows = result.preview.length;
    await context.finish(
      { status: 'completed', fields: { result } },
      restorePreviewEntry('restore.previewed', run, { types: rows, prune_candidates: result.prune.length }),
    );
  }

  /** A message safe to store and show: what the provider or the service said; undefined for others. */
  describe(error: unknown): string | undefined {
    return describeBackupReadFailure(error);
  }

  failedEntry(run: RestorePreviewEntity, message: string): AuditEntry {
    return restorePreviewEntry('restore.preview_failed', run, { error: message });
  }
}
