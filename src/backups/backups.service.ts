import { ApprovalGate, type HeldForApproval } from '@app/approvals/approval-gate.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '@app/common/errors.js';
import { keysetRows, type PeriodFilter } from '@app/common/keyset-rows.js';
import type { ConnectionRef } from '@app/connections/connection-ref.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { backupEntry, factsOf } from './backup-audit.js';
import { BackupPlanner } from './backup-planner.js';
import { BackupsRepository } from './backups.repository.js';
import type { BackupEntity, BackupTrigger } from './backup.entity.js';
import {
  type BackupDto,
  type BackupStatsDto,
  type BackupStatusDto,
  toBackupDto,
  toBackupStatusDto,
} from './dto/backup.dto.js';
import type { ListBackupsQuery } from './dto/list-backups.query.js';
import type { RunBackupDto } from './dto/run-backup.dto.js';
import type { BackupStarted } from './backup-started.js';
import { resolveIncludedTypes } from './included-types.js';

/** Rows read per query when a period's backups are streamed out. */
const PERIOD_PAGE = 500;

/** The pre-restore backup of a restore failed: the restore must not write. */
export class PreRestoreBackupFailedError extends Error {
  override readonly name = 'PreRestoreBackupFailedError';

  constructor(reason: string) {
    super(`The pre-restore backup failed (${reason}); nothing was written to the org`);
  }
}

/**
 * Backups of a team's connections (spec "Backups", DESIGN sections 4-5). Starting one only
 * records and enqueues it; the `backup-run` job does the work.
 */
@Injectable()
export class BackupsService {
  private readonly logger = new Logger(BackupsService.name);

  constructor(
    private readonly backups: BackupsRepository,
    private readonly planner: BackupPlanner,
    private readonly connections: ConnectionsService,
    private readonly runner: TrackedRunRunner,
    private readonly audit: AuditService,
    private readonly plans: PlanLimitsService,
    private readonly gate: ApprovalGate,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * @throws PlanLimitExceededError `backups_per_day` or `trial_ended` (402), checked first;
   *   NotFoundError for a connection the team cannot see; ValidationError for an unknown
   *   resource type in `include`, or `includeWorkflows` without a Workflows connection to the org;
   *   ConflictError `backup_in_progress` (409) while one runs.
   */
  async run(actor: Actor, input: RunBackupDto): Promise<BackupStarted> {
    await this.plans.assertCanRunBackup(actor);
    const connection = await this.connections.getRef(actor.teamId, input.connectionId);
    // Checked now, so a missing Workflows connection is a 400 rather than a failed backup.
    if (input.includeWorkflows) await this.connections.workflowsConnectionOf(actor.teamId, connection.id);
    const started = await this.start({
      connection,
      ownerUserId: actor.userId,
      by: byCaller(actor),
      triggeredBy: 'manual',
      include: input.include ? resolveIncludedTypes(connection.provider, input.include) : null,
      includeWorkflows: input.includeWorkflows ?? false,
      forceFull: input.forceFullBackup ?? false,
    });
    if (!started)
      throw new ConflictError('backup_in_progress', 'A backup of this connection is already running');
    return started;
  }

  /**
   * Starts the backup of a schedule slot (DESIGN section 1), owned by the connection's owner.
   * The caller has claimed the slot (one replica does), and one running backup per connection
   * is enforced by the database. @returns null when a backup of the connection is already
   * running (the slot is skipped). @throws NotFoundError when the connection is gone.
   */
  async startScheduled(teamId: string, connectionId: string): Promise<BackupStarted | null> {
    const connection = await this.connections.getRef(teamId, connectionId);
    return this.start({
      connection,
      ownerUserId: connection.ownerUserId,
      triggeredBy: 'schedule',
      include: null,
      includeWorkflows: false,
      forceFull: false,
    });
  }

  /**
   * Takes the pre-restore backup of a connection and waits for it (DESIGN section 6: every restore
   * can be undone by restoring this backup). A backup already running is waited for first (the
   * org has not been written yet, but one backup runs at a time per connection). Incremental when
   * the planner allows, so it costs what changed since the last backup.
   * @param options.pollMs how often the backup is looked at, ms (default BACKUP_WAIT_POLL_SECONDS)
   * @param options.onWait called while waiting, with what is awaited
   * @returns the id of the completed backup
   * @throws NotFoundError when the connection is gone; PreRestoreBackupFailedError when the
   *   backup fails; the signal's reason when aborted
   */
  async takePreRestoreBackup(
    teamId: string,
    connectionId: string,
    ownerUserId: string,
    options: { pollMs?: number; signal?: AbortSignal; onWait?: (message: string) => Promise<void> } = {},
  ): Promise<string> {
    const pollMs = options.pollMs ?? this.config.BACKUP_WAIT_POLL_SECONDS * 1000;
    const connection = await this.connections.getRef(teamId, connectionId);
    let started: BackupStarted | null = null;
    while (!started) {
      started = await this.start({
        connection,
        ownerUserId,
        triggeredBy: 'pre_restore',
        include: null,
        includeWorkflows: false,
        forceFull: false,
      });
      if (!started) {
        await options.onWait?.('Waiting for the backup already running on this connection');
        await delay(pollMs, undefined, { signal: options.signal });
      }
    }
    for (;;) {
      const backup = await this.backups.findById(started.backupId);
      if (backup?.status === 'completed') return backup.id;
      if (!backup || backup.status === 'failed')
        throw new PreRestoreBackupFailedError(backup?.errorMessage ?? 'the backup was deleted');
      await options.onWait?.(`Taking the pre-restore backup: ${backup.progressMessage}`);
      await delay(pollMs, undefined, { signal: options.signal });
    }
  }

  private async start(input: {
    connection: ConnectionRef;
    ownerUserId: string;
    /** the API caller who started it; none for a schedule or a restore's backup */
    by?: ReturnType<typeof byCaller>;
    triggeredBy: BackupTrigger;
    include: string[] | null;
    includeWorkflows: boolean;
    forceFull: boolean;
  }): Promise<BackupStarted | null> {
    const { connection } = input;
    const id = randomUUID();
    const plan = await this.planner.plan({
      teamId: connection.teamId,
      connectionId: connection.id,
      types: input.include,
      forceFull: input.forceFull,
    });
    const facts = {
      id,
      teamId: connection.teamId,
      connectionId: connection.id,
      org: connection.orgName ?? connection.orgUrl,
      triggeredBy: input.triggeredBy,
    };
    const inserted = await this.audit.audited(
      (tx) =>
        this.backups.insertRunning(
          {
            id,
            teamId: connection.teamId,
            connectionId: connection.id,
            ownerUserId: input.ownerUserId,
            kind: plan.kind,
            baseBackupId: plan.kind === 'incremental' ? plan.base.id : null,
            triggeredBy: input.triggeredBy,
            include: input.include,
            includeWorkflows: input.includeWorkflows,
            storageKey: `teams/${connection.teamId}/users/${input.ownerUserId}/connections/${connection.id}/backups/${id}/`,
          },
          tx,
        ),
      (ok) => (ok ? backupEntry('backup.started', facts, { kind: plan.kind }, input.by) : null),
    );
    if (!inserted) return null;
    const jobId = await this.runner.enqueue({
      runs: this.backups,
      noun: 'backup',
      id,
      queue: 'backup-run',
      data: { backupId: id },
      failedEntry: (error) => backupEntry('backup.failed', facts, { error }),
    });
    return { backupId: id, instanceId: jobId, status: 'started' };
  }

  async status(actor: Actor, backupId: string): Promise<BackupStatusDto> {
    return toBackupStatusDto(await this.findOrThrow(actor, backupId));
  }

  async active(actor: Actor): Promise<BackupDto[]> {
    return (await this.backups.listActive(actor.teamId)).map(toBackupDto);
  }

  async list(
    actor: Actor,
    query: ListBackupsQuery,
  ): Promise<{ backups: BackupDto[]; total: number; stats: BackupStatsDto | null }> {
    if (query.minSize !== undefined && query.maxSize !== undefined && query.minSize > query.maxSize) {
      throw new ValidationError('minSize must not exceed maxSize', [
        { field: 'minSize', message: 'greater than maxSize' },
      ]);
    }
    const { rows, total } = await this.backups.listPage(actor.teamId, query);
    const stats = query.includeStats ? await this.stats(actor.teamId, query) : null;
    return { backups: rows.map(toBackupDto), total, stats };
  }

  /**
   * The team's backups of the period's connections started in it, oldest first, read a page at a
   * time (memory holds one page, whatever the period: the audit pack, docs/export.md).
   */
  async *listPeriod(teamId: string, filter: PeriodFilter): AsyncGenerator<BackupDto> {
    const rows = keysetRows<BackupEntity>(
      (after) => this.backups.listPeriodPage(teamId, filter, after, PERIOD_PAGE),
      PERIOD_PAGE,
    );
    for await (const row of rows) yield toBackupDto(row);
  }

  /**
   * The connection's last completed backup started in [from, to]: its id and the SHA-256 of its
   * manifest as written; null when there is none.
   */
  async latestCompletedIn(
    teamId: string,
    connectionId: string,
    from: Date,
    to: Date,
  ): Promise<{ id: string; sha256: string | null } | null> {
    const found = await this.backups.latestCompletedIn(teamId, connectionId, from, to);
    return found && { id: found.id, sha256: found.sha256 };
  }

  async get(actor: Actor, id: string): Promise<BackupDto> {
    return toBackupDto(await this.findOrThrow(actor, id));
  }

  /**
   * Deletes the snapshot's objects, then the record (a crash between the two leaves a record
   * whose delete can be repeated, never orphaned objects without a record pointing at them).
   * When the team's two-person approval covers backup deletion, holds it instead
   * (docs/approvals.md). @returns the pending request when held, else null
   * @throws ConflictError (409) while the backup is running.
   */
  async delete(actor: Actor, id: string): Promise<HeldForApproval | null> {
    const backup = await this.findOrThrow(actor, id);
    if (backup.status === 'running')
      throw new ConflictError('backup_running', 'A running backup cannot be deleted');
    const held = await this.gate.hold(actor, 'backup_delete', async () => ({
      target: { type: 'backup', id },
      summary: `Delete backup ${id} of ${backup.connection.orgName ?? backup.connection.orgUrl}`,
      body: {},
    }));
    if (held) return held;
    await this.deleteObjectsOf(backup);
    await this.audit.audited(
      (tx) => this.backups.delete(actor.teamId, id, tx),
      () => backupEntry('backup.deleted', factsOf(backup), {}, byCaller(actor)),
    );
    return null;
  }

  /**
   * Retention (spec "Limits": backups follow the team's plan and backup settings): deletes the
   * backups the rule of their connection lets go (`BackupsRepository.findExpired`, docs/backups.md
   * "Retention"), objects first through the store's `deletePrefix`, in batches. @returns how
   * many were deleted.
   */
  async deleteExpired(now = new Date(), batchSize = 100): Promise<number> {
    let deleted = 0;
    for (;;) {
      const expired = await this.backups.findExpired(now, batchSize);
      for (const backup of expired) {
        await this.deleteObjectsOf(backup);
        await this.audit.audited(
          (tx) => this.backups.delete(backup.teamId, backup.id, tx),
          () => ({
            teamId: backup.teamId,
            actor: { type: 'system', id: null },
            action: 'backup.deleted',
            target: { type: 'backup', id: backup.id },
            outcome: 'success',
            details: { reason: 'retention' },
          }),
        );
      }
      deleted += expired.length;
      if (expired.length < batchSize) return deleted;
    }
  }

  /**
   * Deletes the objects failed backups left when the store was down as they failed
   * (BackupRunJob.discard), oldest first, `batchSize` at a time; stops at the first the store
   * still refuses, for the next run to take up. @returns how many backups were cleaned
   */
  async discardLeftovers(batchSize = 100): Promise<number> {
    let cleaned = 0;
    for (;;) {
      const pending = await this.backups.findDiscardPending(batchSize);
      for (const backup of pending) {
        try {
          await this.deleteObjectsOf(backup);
        } catch (error) {
          this.logger.warn(`Objects of failed backup ${backup.id} not deleted yet: ${String(error)}`);
          return cleaned;
        }
        await this.backups.setDiscardPending(backup.id, false);
        cleaned += 1;
      }
      if (pending.length < batchSize) return cleaned;
    }
  }

  /** Deletes a backup's snapshot objects, unless another backup records the same snapshot (unchanged-base.ts). */
  private async deleteObjectsOf(backup: Pick<BackupEntity, 'id' | 'storageKey'>): Promise<void> {
    if (await this.backups.sharesStorage(backup.storageKey, backup.id)) return;
    await this.store.deletePrefix(backup.storageKey);
  }

  private async stats(teamId: string, query: ListBackupsQuery): Promise<BackupStatsDto> {
    const row = await this.backups.stats(teamId, query);
    const finished = row.completed + row.failed;
    return {
      totalBackups: row.total,
      completedBackups: row.completed,
      failedBackups: row.failed,
      successRate: finished === 0 ? 0 : Number((row.completed / finished).toFixed(4)),
      totalSize: row.totalSize,
      resourceTypes: row.resourceTypes,
    };
  }

  private async findOrThrow(actor: Actor, id: string) {
    const backup = await this.backups.findVisible(actor.teamId, id);
    if (!backup) throw new NotFoundError('Backup');
    return backup;
  }
}
