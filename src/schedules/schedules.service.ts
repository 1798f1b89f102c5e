import { Injectable, Logger } from '@nestjs/common';
import { type AuditEntry, byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import type { Actor } from '@app/common/actor.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { ConnectionRef } from '@app/connections/connection-ref.js';
import { ValidationError } from '@app/common/errors.js';
import { PlanLimitExceededError } from '@app/plans/plan-limit-exceeded.error.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { type ScheduleDto, toScheduleDto } from './dto/schedule.dto.js';
import type { UpdateScheduleDto } from './dto/update-schedule.dto.js';
import { nextRunAfter } from './next-run.js';
import { applyScheduleChanges, DEFAULT_SCHEDULE, type ScheduleSettings } from './schedule-settings.js';
import { type DueSchedule, SchedulesRepository } from './schedules.repository.js';

/**
 * Most schedules one tick enqueues; the rest stay due and are taken by the next tick (or by
 * another replica), so one tick never runs for longer than the minute between ticks.
 */
const DUE_BATCH = 200;

/** What the backups planner reads of a connection's schedule (DESIGN section 5). */
export type IncrementalPolicy = Pick<ScheduleSettings, 'incrementalEnabled' | 'timezone' | 'fullBackupDay'>;

/**
 * Starts the scheduled backup of a connection (the backups feature's `startScheduled`, handed in
 * by the scheduler so that schedules and backups never import each other).
 * @returns the backup's id, or null when a backup of the connection is already running
 */
export type StartScheduledBackup = (
  teamId: string,
  connectionId: string,
) => Promise<{ backupId: string } | null>;

/**
 * Backup schedules of connections (spec "Schedule (per connection)", docs/schedules.md) and the
 * enqueueing of their due runs, one backup per slot however many replicas tick (DESIGN section 1).
 */
@Injectable()
export class SchedulesService {
  private readonly logger = new Logger(SchedulesService.name);

  constructor(
    private readonly schedules: SchedulesRepository,
    private readonly connections: ConnectionsService,
    private readonly audit: AuditService,
    private readonly plans: PlanLimitsService,
  ) {}

  /** The connection's schedule, the default one if none was saved. @throws NotFoundError when missing or another team's. */
  async get(actor: Actor, connectionId: string): Promise<ScheduleDto> {
    await this.connections.getRef(actor.teamId, connectionId);
    const saved = await this.schedules.findForConnection(actor.teamId, connectionId);
    return saved ? toScheduleDto(saved, saved.nextRunAt) : toScheduleDto(DEFAULT_SCHEDULE, null);
  }

  /**
   * A weekly sandbox drill's sandbox (docs/backups.md "Sandbox drills"): another connection of the
   * team, of the same provider kind.
   * @throws NotFoundError for one the team cannot see; ValidationError `sandbox_is_source` for the
   *   connection itself, `target_kind_mismatch` for another provider kind
   */
  private async checkSandbox(teamId: string, connection: ConnectionRef, sandboxId: string): Promise<void> {
    const field = 'verify_sandbox_connection_id';
    if (sandboxId === connection.id)
      throw new ValidationError('A sandbox drill restores into another connection than the backed-up one', {
        code: 'sandbox_is_source',
        field,
      });
    const sandbox = await this.connections.getRef(teamId, sandboxId);
    if (sandbox.provider !== connection.provider)
      throw new ValidationError(
        `The sandbox must be a ${connection.provider} connection, like the backed-up one`,
        {
          code: 'target_kind_mismatch',
          field,
        },
      );
  }

  /**
   * The connections whose schedule asks for a weekly verification drill (docs/backups.md "Verification
   * drills").
   */
  weeklyVerifications(): Promise<
    Array<{ teamId: string; connectionId: string; verifySandboxConnectionId: string | null }>
  > {
    return this.schedules.findWeeklyVerifications();
  }

  /** The incremental settings of the connection's schedule, the default one's if none was saved. */
  async incrementalPolicy(teamId: string, connectionId: string): Promise<IncrementalPolicy> {
    const { incrementalEnabled, timezone, fullBackupDay } =
      (await this.schedules.findForConnection(teamId, connectionId)) ?? DEFAULT_SCHEDULE;
    return { incrementalEnabled, timezone, fullBackupDay };
  }

  /**
   * Applies `changes` over the saved (or default) schedule and saves it with its next run
   * computed from now (null when disabled).
   * @throws PlanLimitExceededError (402) `schedule_frequencies` or `trial_ended` for a frequency
   *   the plan does not allow, `retention_days` or `retention_count` for a retention above the
   *   plan's (docs/backups.md "Retention"), checked first; NotFoundError when the connection is missing or
   *   another team's; ValidationError for a rule between fields (`applyScheduleChanges`).
   */
  async update(actor: Actor, connectionId: string, changes: UpdateScheduleDto): Promise<ScheduleDto> {
    if (changes.frequency) await this.plans.assertScheduleFrequency(actor, changes.frequency);
    if (changes.retention_days != null || changes.retention_count != null)
      await this.plans.assertRetention(actor, {
        days: changes.retention_days,
        count: changes.retention_count,
      });
    const connection = await this.connections.getRef(actor.teamId, connectionId);
    if (changes.verify_sandbox_connection_id)
      await this.checkSandbox(actor.teamId, connection, changes.verify_sandbox_connection_id);
    const saved = await this.schedules.findForConnection(actor.teamId, connectionId);
    const schedule = applyScheduleChanges(saved ?? DEFAULT_SCHEDULE, changes);
    const nextRunAt = schedule.enabled ? nextRunAfter(schedule, new Date()) : null;
    await this.audit.audited(
      (tx) => this.schedules.save(actor.teamId, connectionId, schedule, nextRunAt, tx),
      () => ({
        ...byCaller(actor),
        action: 'schedule.updated',
        target: { type: 'connection', id: connectionId },
        outcome: 'success',
        details: { ...changes, next_run_at: nextRunAt?.toISOString() ?? null },
      }),
    );
    return toScheduleDto(schedule, nextRunAt);
  }

  /**
   * Starts the backups of every schedule due at `now` (called each minute by the scheduler, on
   * every worker replica). Each slot is claimed with an optimistic UPDATE first, so only one
   * replica starts its backup; the next slot is the first one after `now`, so slots missed
   * during downtime run once, not once each. A slot whose connection already has a backup
   * running, or whose frequency the team's plan no longer allows (docs/plans.md), is skipped; a failure on one schedule is logged and does not stop the others.
   * @returns ids of the backups started.
   */
  async enqueueDue(now: Date, start: StartScheduledBackup): Promise<string[]> {
    const started: string[] = [];
    for (const schedule of await this.schedules.findDue(now, DUE_BATCH)) {
      try {
        const backupId = await this.runSlot(schedule, now, start);
        if (backupId) started.push(backupId);
      } catch (error) {
        this.logger.error(
          `Scheduled backup of connection ${schedule.connectionId} (slot ${schedule.nextRunAt.toISOString()}) failed to start: ${String(error)}`,
        );
        await this.audit
          .recordAlone(missedSlot(schedule, 'the backup could not be started'))
          .catch((failure) => this.logger.error(`schedule.missed not recorded: ${String(failure)}`));
      }
    }
    return started;
  }

  /** @returns the backup started for the schedule's slot, or null when another replica claimed it or a backup is running. */
  private async runSlot(
    schedule: DueSchedule,
    now: Date,
    start: StartScheduledBackup,
  ): Promise<string | null> {
    const slot = schedule.nextRunAt;
    const next = nextRunAfter(schedule, now);
    if (!(await this.schedules.claimSlot(schedule.connectionId, slot, next, now))) return null;
    // The plan may have changed since the schedule was saved (a downgrade, a trial that ended):
    // a slot of a frequency the plan no longer allows gets no backup, as its PATCH would get 402.
    const refusal = await this.plans.assertScheduleFrequency(schedule, schedule.frequency, now).then(
      () => null,
      (error: unknown) => (error instanceof PlanLimitExceededError ? error : Promise.reject(error)),
    );
    if (refusal) {
      this.logger.warn(
        `Skipped the ${slot.toISOString()} backup of connection ${schedule.connectionId}: ${refusal.message}`,
      );
      await this.audit.recordAlone(missedSlot(schedule, `the plan does not allow it (${refusal.limit})`));
      return null;
    }
    const backup = await start(schedule.teamId, schedule.connectionId);
    if (!backup) {
      this.logger.warn(
        `Skipped the ${slot.toISOString()} backup of connection ${schedule.connectionId}: a backup of it is already running`,
      );
      await this.audit.recordAlone(missedSlot(schedule, 'a backup of the connection was already running'));
      return null;
    }
    await this.schedules.recordBackup(schedule.connectionId, backup.backupId);
    return backup.backupId;
  }
}

/** The audit entry of a due slot that got no backup (notified as `schedule.missed`). */
function missedSlot(schedule: DueSchedule, reason: string): AuditEntry {
  return {
    teamId: schedule.teamId,
    actor: { type: 'schedule', id: null },
    action: 'schedule.missed',
    target: { type: 'connection', id: schedule.connectionId },
    outcome: 'failure',
    details: { slot: schedule.nextRunAt.toISOString(), reason },
  };
}
