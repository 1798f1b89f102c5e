import { Injectable } from '@nestjs/common';
import { ProviderError } from '@libs/providers/provider-errors.js';
import { PreRestoreBackupFailedError } from '@app/backups/backups.service.js';
import { SandboxDrills, sandboxDrillFailure } from '@app/restore/cross-org/sandbox-drill.js';
import { DecryptionError } from '@libs/crypto/crypto-errors.js';
import { ObjectNotFoundError } from '@libs/object-store/object-store-errors.js';
import { SnapshotIntegrityError, SnapshotNotFoundError } from '@libs/snapshot/snapshot-errors.js';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { ApiError, NotFoundError } from '@app/common/errors.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { type RunContext, TrackedRun } from '@app/platform/jobs/tracked-run/tracked-run-kind.js';
import { TrackedRunJob } from '@app/platform/jobs/tracked-run/tracked-run-job.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { drillEntry } from './drill-audit.js';
import type { RestoreDrillEntity, RestoreDrillResult } from './restore-drill.entity.js';
import { RestoreDrillsRepository } from './restore-drills.repository.js';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'restore-drill-run': { drillId: string };
  }
}

/**
 * The `restore-drill-run` job (docs/backups.md "Verification drills"): reads a backup's snapshot end to end
 * as a restore would, without writing anywhere. Opening authenticates the manifest and checks its SHA-256
 * against the one recorded when the backup finished; `SnapshotReader.verify` then decrypts every
 * frame of every part and index shard (AES-256-GCM tags), checks each object's size and SHA-256,
 * parses every record and matches it with its index entry and content hash. The drill passes
 * (`completed`) only when all of that held; anything else, a flipped byte, a missing object, an
 * unreadable store, ends it `failed` with what went wrong. The lifecycle around it:
 * TrackedRunRunner.
 */
@TrackedRun()
@Injectable()
export class RestoreDrillRunJob extends TrackedRunJob<RestoreDrillEntity, RestoreDrillsRepository> {
  readonly noun = 'restore drill';
  readonly internalErrorMessage =
    'The snapshot could not be verified (internal error, see the worker log): it did not pass';
  readonly staleMessage =
    'The worker verifying this snapshot stopped responding: it did not pass; run it again';

  constructor(
    runner: TrackedRunRunner,
    runs: RestoreDrillsRepository,
    private readonly snapshots: BackupSnapshotsService,
    private readonly sandboxes: SandboxDrills,
  ) {
    super(runner, runs);
  }

  @OnJob({ queue: 'restore-drill-run', expireInSeconds: 6 * 3600, retryLimit: 1, retryDelay: 30 })
  handle(job: Job<'restore-drill-run'>): Promise<void> {
    return this.start(job.data.drillId, job);
  }

  async execute(drill: RestoreDrillEntity, context: RunContext<RestoreDrillEntity>): Promise<void> {
    if (drill.backupId === null) throw new NotFoundError('Backup');
    const began = performance.now();
    await context.progress(5, 'Opening the snapshot');
    const { reader } = await this.snapshots.open(drill.teamId, drill.backupId);
    await context.progress(10, 'Reading every part and index shard');
    await reader.verify();
    const { parts } = reader.manifest;
    const result: RestoreDrillResult = {
      parts: parts.length,
      records: parts.reduce((sum, part) => sum + part.count, 0),
      bytes: reader.manifest.totalStoredBytes,
      durationMs: Math.round(performance.now() - began),
    };
    if (drill.targetConnectionId === null || drill.mapping === null) {
      await context.finish(
        { status: 'completed', fields: { result } },
        drillEntry('drill.passed', drill, { ...result }),
      );
      return;
    }
    const sandbox = await this.sandboxes.run(
      {
        teamId: drill.teamId,
        backupId: drill.backupId,
        targetConnectionId: drill.targetConnectionId,
        mapping: drill.mapping,
        ownerUserId: drill.requestedBy ?? drill.connection.ownerUserId,
      },
      (pct, message) => context.progress(pct, message),
      context.signal,
    );
    const facts = {
      ...result,
      target_connection_id: drill.targetConnectionId,
      sandbox_passed: sandbox.passed,
    };
    if (sandbox.passed)
      await context.finish(
        { status: 'completed', fields: { result, sandbox } },
        drillEntry('drill.passed', drill, facts),
      );
    else {
      const errorMessage = sandboxDrillFailure(sandbox);
      await context.finish(
        { status: 'failed', errorMessage, fields: { result, sandbox } },
        drillEntry('drill.failed', drill, { ...facts, error: errorMessage }),
      );
    }
  }

  /** What failed, safe to show: the integrity problem found, or what could not be read. */
  describe(error: unknown): string | undefined {
    if (error instanceof SnapshotIntegrityError || error instanceof DecryptionError)
      return `The snapshot failed verification: ${error.message}`;
    if (error instanceof SnapshotNotFoundError || error instanceof ObjectNotFoundError)
      return `The snapshot is incomplete in the object store: ${error.message}`;
    if (error instanceof ApiError) return error.message;
    if (error instanceof ProviderError) return `The sandbox refused or failed: ${error.message}`;
    if (error instanceof PreRestoreBackupFailedError) return `The sandbox's backup failed: ${error.message}`;
    return undefined;
  }

  failedEntry(drill: RestoreDrillEntity, message: string): AuditEntry {
    return drillEntry('drill.failed', drill, { error: message });
  }
}
