import { Injectable, Logger } from '@nestjs/common';
import { ProviderError } from '@libs/providers/provider-errors.js';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { BackupsService, PreRestoreBackupFailedError } from '@app/backups/backups.service.js';
import { NotFoundError } from '@app/common/errors.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { type RunContext, TrackedRun } from '@app/platform/jobs/tracked-run/tracked-run-kind.js';
import { describeBackupReadFailure, TrackedRunJob } from '@app/platform/jobs/tracked-run/tracked-run-job.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { executeRestore } from '@libs/restore/executor.js';
import type { RestoreItem } from '@libs/restore/items.js';
import type { RestoreTypeSummary } from '@libs/restore/restore-types.js';
import type { RestoreSelection } from '@libs/restore/scope.js';
import type { RestoreEntity } from './restore.entity.js';
import { RestoresRepository } from './restores.repository.js';
import { restoreEntry, restoreTotals } from './restore-audit.js';
import { RestorePackages } from './restore-packages.js';
import { RestoreUndo } from './undo/restore-undo.js';
import { fieldReverts } from './undo/field-reverts.js';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import { crossOrgRestorer } from './cross-org/cross-org-restorer.factory.js';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'restore-run': { restoreId: string };
  }
}

/**
 * The `restore-run` job (DESIGN section 6): takes the pre-restore backup, then executes the
 * restore (libs/restore/executor.ts), recording each write as it goes, and ends the restore
 * `completed`, `partial` (some writes failed) or `failed` (it could not go on: the pre-restore
 * backup failed, the credentials were refused, the backup is altered), with what was applied
 * recorded in every case. A job is tried once more only when its worker died before taking the
 * restore; a restore already taken is never run twice by pg-boss (a stale one is failed by the
 * sweep: run it again, it is idempotent). The lifecycle around it: TrackedRunRunner.
 */
@TrackedRun()
@Injectable()
export class RestoreRunJob extends TrackedRunJob<RestoreEntity, RestoresRepository> {
  readonly noun = 'restore';
  readonly internalErrorMessage =
    'Internal error while restoring (see the worker log); what was applied is listed in the items';
  readonly staleMessage =
    'The worker running this restore stopped responding; what was applied is listed in its items. Run it again: a restore is idempotent';
  private readonly logger = new Logger(RestoreRunJob.name);

  constructor(
    runner: TrackedRunRunner,
    runs: RestoresRepository,
    private readonly backups: BackupsService,
    private readonly snapshots: BackupSnapshotsService,
    private readonly connections: ConnectionsService,
    private readonly packages: RestorePackages,
    private readonly undo: RestoreUndo,
  ) {
    super(runner, runs);
  }

  @OnJob({ queue: 'restore-run', expireInSeconds: 12 * 3600, retryLimit: 1, retryDelay: 30 })
  handle(job: Job<'restore-run'>): Promise<void> {
    return this.start(job.data.restoreId, job);
  }

  async execute(restore: RestoreEntity, context: RunContext<RestoreEntity>): Promise<void> {
    if (await this.packaged(restore, context)) return;
    const summary = await this.run(restore, context);
    const failed = Object.values(summary).some((type) => type.failed > 0);
    const status = failed ? 'partial' : 'completed';
    await context.finish(
      { status, fields: { summary } },
      restoreEntry(`restore.${status}`, restore, { items: restoreTotals(summary) }),
    );
  }

  /**
   * For a provider restored by hand (RestorePackages): builds and stores the re-import package of
   * the selection and ends the restore `completed` with it. Nothing is written to the provider, so
   * no pre-restore backup is taken. @returns false for a provider restored through its API
   */
  private async packaged(restore: RestoreEntity, context: RunContext<RestoreEntity>): Promise<boolean> {
    if (restore.backupId === null) throw new NotFoundError('Backup');
    const opened = await this.snapshots.open(restore.teamId, restore.backupId);
    if (!this.packages.appliesTo(opened)) return false;
    await context.progress(20, 'Building the re-import package');
    const pkg = await this.packages.build(opened, {
      types: new Set(restore.resourceTypes ?? opened.reader.types),
      ...(restore.resourceIds ? { ids: new Set(restore.resourceIds) } : {}),
    });
    const packageKey = await this.packages.save(restore.teamId, restore.id, pkg);
    const summary: Record<string, RestoreTypeSummary> = Object.fromEntries(
      Object.entries(pkg.counts).map(([type, count]) => [
        type,
        { create: count, update: 0, delete: 0, skip: 0, failed: 0, notes: pkg.notes },
      ]),
    );
    await context.finish(
      {
        status: 'completed',
        message:
          'Re-import package ready: download it from the restore (nothing was written to the provider)',
        fields: { summary, packageKey },
      },
      restoreEntry('restore.completed', restore, { items: restoreTotals(summary), package: true }),
    );
    return true;
  }

  /** A message safe to store and show: what the provider or the service said; undefined for others. */
  describe(error: unknown): string | undefined {
    if (error instanceof ProviderError) return `The org refused or failed: ${error.message}`;
    if (error instanceof PreRestoreBackupFailedError) return error.message;
    return describeBackupReadFailure(error);
  }

  failedEntry(restore: RestoreEntity, message: string): AuditEntry {
    return restoreEntry('restore.failed', restore, { error: message });
  }

  /** The connector's restorer; into another org, carrying the backup over by the restore's mapping. */
  private restorerOf(restore: RestoreEntity, connector: ProviderConnector): ProviderRestorer {
    const options = { activateUsers: restore.activateUsers, restoreOptions: restore.options };
    if (restore.mapping === null) return connector.restorer(options);
    return crossOrgRestorer(connector, restore.connection.provider, options, restore.mapping);
  }

  private async run(
    restore: RestoreEntity,
    { signal, ...context }: RunContext<RestoreEntity>,
  ): Promise<Record<string, RestoreTypeSummary>> {
    const progress = (pct: number, message: string, summary?: Record<string, RestoreTypeSummary>) =>
      context.progress(pct, message, summary && { summary });
    await progress(2, 'Taking the pre-restore backup');
    const preRestoreBackupId = await this.backups.takePreRestoreBackup(
      restore.teamId,
      restore.connectionId,
      restore.requestedBy ?? restore.connection.ownerUserId,
      { signal, onWait: (message) => progress(5, message) },
    );
    await this.runs.setPreRestoreBackup(restore.id, preRestoreBackupId);
    if (restore.backupId === null) throw new NotFoundError('Backup');
    const opened = await this.snapshots.open(restore.teamId, restore.backupId);
    const { reader } = opened;
    // Write scopes of every type the backup holds: a selective restore also writes what hangs off
    // what it restores (docs/restore.md).
    const connector = await this.connections.openConnector(
      restore.teamId,
      restore.connectionId,
      reader.types,
    );
    try {
      await progress(15, 'Reading the live org');
      // An undo restores exactly the changes since the backup it reverses (docs/restore.md).
      const filter = restore.mode === 'undo' ? this.undo.filterOfRestore(restore) : undefined;
      const undo = filter ? await this.undo.plan(opened, connector, filter, signal) : undefined;
      // An undo of some fields: the objects as they are now, those fields put back.
      const fields = restore.mode === 'undo' ? restore.undo?.fields : undefined;
      const reshape = fields?.length
        ? await fieldReverts(
            reader,
            (await this.snapshots.open(restore.teamId, preRestoreBackupId)).reader,
            fields,
          )
        : undefined;
      const execute = (selection: RestoreSelection) =>
        executeRestore({
          ...(reshape ? { reshape } : {}),
          snapshot: reader,
          connector,
          restorer: this.restorerOf(restore, connector),
          crossOrg: restore.mapping !== null,
          selection,
          prune: restore.prune,
          signal,
          sink: {
            record: (items: RestoreItem[]) => this.runs.appendItems(restore.id, items),
            progress,
            internalError: (error) =>
              this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error)),
          },
        });
      const summary = await execute(
        undo?.selection ?? {
          types: new Set(restore.resourceTypes ?? reader.types),
          ...(restore.resourceIds ? { ids: new Set(restore.resourceIds) } : {}),
        },
      );
      if (!filter || !undo) return summary;
      await progress(90, 'Removing what came back with the re-created objects');
      const cameBack = await this.undo.cameBack(opened, connector, filter, undo, signal);
      return cameBack ? addSummaries(summary, await execute(cameBack)) : summary;
    } finally {
      await connector.close();
    }
  }
}

/** Two runs' summaries as one: counts added, notes once each. */
function addSummaries(
  first: Record<string, RestoreTypeSummary>,
  second: Record<string, RestoreTypeSummary>,
): Record<string, RestoreTypeSummary> {
  const sum = structuredClone(first);
  for (const [type, more] of Object.entries(second)) {
    const into = (sum[type] ??= { create: 0, update: 0, delete: 0, skip: 0, failed: 0, notes: [] });
    for (const key of ['create', 'update', 'delete', 'skip', 'failed'] as const) into[key] += more[key];
    for (const note of more.notes) if (!into.notes.includes(note)) into.notes.push(note);
  }
  return sum;
}
