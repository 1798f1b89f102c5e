import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type AuditBy, byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { BackupsService } from '@app/backups/backups.service.js';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@app/common/errors.js';
import { Permission, roleHasPermission } from '@app/common/permission.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { CrossOrgTargets } from '@app/restore/cross-org/cross-org-target.js';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';
import type { VerifyBackupDto } from './dto/verify-backup.dto.js';
import { keysetRows, type PeriodFilter } from '@app/common/keyset-rows.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { drillEntry } from './drill-audit.js';
import {
  type RestoreDrillDto,
  type RestoreDrillStartedDto,
  toRestoreDrillDto,
} from './dto/restore-drill.dto.js';
import type { RestoreDrillEntity } from './restore-drill.entity.js';
import { RestoreDrillsRepository } from './restore-drills.repository.js';

/** Rows read per query when a period's drills are streamed out. */
const PAGE = 500;

/**
 * Restore drills (docs/backups.md "Verification drills"): a stored snapshot read end to
 * end in a job (RestoreDrillRunJob) to prove it would restore. Starting one only records and
 * enqueues it.
 */
@Injectable()
export class RestoreDrillsService {
  constructor(
    private readonly drills: RestoreDrillsRepository,
    private readonly backups: BackupsService,
    private readonly runner: TrackedRunRunner,
    private readonly audit: AuditService,
    private readonly targets: CrossOrgTargets,
  ) {}

  /**
   * Records a drill of the backup and enqueues its verification; while a drill of the backup is
   * pending or running, answers that one instead of starting another (a drill reads the whole
   * snapshot, so repeated requests must not fill the worker's queue).
   * @throws NotFoundError for a backup the team cannot see (another team's too)
   * @throws ConflictError `backup_not_completed` for a running or failed backup
   */
  async start(actor: Actor, backupId: string, body: VerifyBackupDto = {}): Promise<RestoreDrillStartedDto> {
    const backup = await this.backups.get(actor, backupId);
    if (backup.status !== 'completed')
      throw new ConflictError(
        'backup_not_completed',
        `Backup ${backupId} is ${backup.status}, not completed`,
      );
    // A sandbox drill writes into the sandbox org: a restore's permission too.
    if (body.targetConnectionId !== undefined && !roleHasPermission(actor.role, Permission.Restore))
      throw new ForbiddenError(
        'A sandbox drill restores into the sandbox: your role does not allow restores',
      );
    const sandbox = await this.sandboxOf(actor.teamId, backup, body);
    const facts = { teamId: actor.teamId, connectionId: backup.connection_id, backupId: backup.id };
    const drill = { ...facts, backupSha256: backup.sha256, requestedBy: actor.userId, ...sandbox };
    return this.begin({ ...drill, triggeredBy: 'manual' }, byCaller(actor));
  }

  /**
   * A sandbox drill's target and mapping (docs/restore.md "Into another org"), or nothing.
   * @throws ValidationError `sandbox_is_source` when the sandbox is the backup's own connection
   *   (the drill would write into the backed-up org); as CrossOrgTargets.resolve otherwise
   */
  private async sandboxOf(
    teamId: string,
    backup: BackupDto,
    body: VerifyBackupDto,
  ): Promise<{ targetConnectionId: string; mapping: CrossOrgMapping } | Record<string, never>> {
    if (body.targetConnectionId === backup.connection_id)
      throw new ValidationError('A sandbox drill restores into another connection than the backup’s own', {
        code: 'sandbox_is_source',
        field: 'targetConnectionId',
      });
    const source = { connectionId: backup.connection_id, provider: backup.connection.provider };
    const target = await this.targets.resolve(teamId, source, body);
    return target ? { targetConnectionId: target.id, mapping: body.mapping ?? {} } : {};
  }

  /**
   * A schedule's weekly verification (docs/backups.md "Verification drills"): a drill of the connection's
   * latest completed backup, unless the schedule already started one since `weekStart` (a retried weekly job
   * starts none twice).
   * @returns the drill started, or null when there was none to start
   */
  async startScheduled(
    teamId: string,
    connectionId: string,
    weekStart: Date,
    now: Date,
    sandboxConnectionId?: string,
  ): Promise<RestoreDrillStartedDto | null> {
    if (await this.drills.scheduledSince(connectionId, weekStart)) return null;
    const backup = await this.backups.latestCompletedIn(teamId, connectionId, new Date(0), now);
    if (!backup) return null;
    const drill = {
      teamId,
      connectionId,
      backupId: backup.id,
      backupSha256: backup.sha256,
      requestedBy: null,
      // A weekly sandbox drill (the schedule's `verify_sandbox_connection_id`), without a mapping.
      ...(sandboxConnectionId && { targetConnectionId: sandboxConnectionId, mapping: {} }),
    };
    return this.begin({ ...drill, triggeredBy: 'schedule' }, { actor: { type: 'schedule', id: null } });
  }

  /**
   * Records a drill, audited as started by `by`, and enqueues its verification; or, when a drill
   * of the same backup is pending or running, answers that one and records nothing.
   */
  private async begin(
    drill: Omit<Parameters<RestoreDrillsRepository['insertPending']>[0], 'id'>,
    by: AuditBy,
  ): Promise<RestoreDrillStartedDto> {
    const id = randomUUID();
    const facts = { id, teamId: drill.teamId, connectionId: drill.connectionId, backupId: drill.backupId };
    const active = await this.audit.audited(
      async (tx) => {
        const running = drill.backupId ? await this.drills.lockActiveOf(drill.backupId, tx) : null;
        if (!running) await this.drills.insertPending({ ...drill, id }, tx);
        return running;
      },
      (running) =>
        running
          ? null
          : drillEntry(
              'drill.started',
              facts,
              {
                kind: 'verification',
                ...(drill.targetConnectionId && { target_connection_id: drill.targetConnectionId }),
              },
              by,
            ),
    );
    if (active) return startedDto(active);
    await this.runner.enqueue({
      runs: this.drills,
      noun: 'restore drill',
      id,
      queue: 'restore-drill-run',
      data: { drillId: id },
      failedEntry: (error) => drillEntry('drill.failed', facts, { error }),
    });
    return startedDto(id);
  }

  /** @throws NotFoundError for a drill the team cannot see */
  async get(actor: Actor, drillId: string): Promise<RestoreDrillDto> {
    const drill = await this.drills.findVisible(actor.teamId, drillId);
    if (!drill) throw new NotFoundError('Restore drill');
    return toRestoreDrillDto(drill);
  }

  /**
   * The team's drills of the period's connections created in it, oldest first, read a page at a
   * time (memory holds one page, whatever the period).
   */
  async *listPeriod(teamId: string, filter: PeriodFilter): AsyncGenerator<RestoreDrillDto> {
    const rows = keysetRows<RestoreDrillEntity>(
      (after) => this.drills.listPeriodPage(teamId, filter, after, PAGE),
      PAGE,
    );
    for await (const row of rows) yield toRestoreDrillDto(row);
  }
}

function startedDto(drillId: string): RestoreDrillStartedDto {
  return { drillId, status: 'started', poll: `/api/restore-drills/${drillId}` };
}
