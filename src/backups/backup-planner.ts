import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { SchedulesService } from '@app/schedules/schedules.service.js';
import type { BackupEntity } from './backup.entity.js';
import { BackupsRepository } from './backups.repository.js';

/** What a new backup will be: a full fetch, or an incremental one over a base backup. */
export type BackupPlan = { kind: 'full'; reason: string } | { kind: 'incremental'; base: BackupEntity };

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * Decides whether a backup is incremental (DESIGN section 5; docs/backups.md). It
 * is, over the connection's latest completed backup, unless:
 * - the caller asked `forceFullBackup`;
 * - the connection's schedule has `incremental_enabled` false, or today (in the schedule's time
 *   zone) is its `full_backup_day`;
 * - there is no completed backup, or the latest did not capture every type this one asks for;
 * - the base is older than INCREMENTAL_MAX_BASE_AGE_HOURS (Okta keeps its System Log 90 days).
 * A base that turns out unreadable when the job opens it also falls back to full (the job's side).
 */
@Injectable()
export class BackupPlanner {
  constructor(
    private readonly backups: BackupsRepository,
    private readonly schedules: SchedulesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** @param types the types the new backup captures (null: all of the connector's) */
  async plan(input: {
    teamId: string;
    connectionId: string;
    types: string[] | null;
    forceFull: boolean;
    now?: Date;
  }): Promise<BackupPlan> {
    const now = input.now ?? new Date();
    if (input.forceFull) return { kind: 'full', reason: 'forceFullBackup' };
    const schedule = await this.schedules.incrementalPolicy(input.teamId, input.connectionId);
    if (!schedule.incrementalEnabled) return { kind: 'full', reason: 'incremental backups are disabled' };
    if (weekdayIn(schedule.timezone, now) === schedule.fullBackupDay) {
      return { kind: 'full', reason: 'full backup day' };
    }
    const [base] = await this.backups.listCompleted(input.teamId, input.connectionId, 1);
    if (base === undefined) return { kind: 'full', reason: 'no completed backup to build on' };
    const covered =
      base.include === null || (input.types !== null && input.types.every((t) => base.include?.includes(t)));
    if (!covered) return { kind: 'full', reason: 'the latest backup did not capture every type' };
    if (now.getTime() - base.startedAt.getTime() > this.config.INCREMENTAL_MAX_BASE_AGE_HOURS * 3_600_000) {
      return { kind: 'full', reason: 'the latest backup is too old to build on' };
    }
    return { kind: 'incremental', base };
  }
}

/** 0 (Sunday) to 6, the weekday of `instant` in an IANA time zone. */
function weekdayIn(timeZone: string, instant: Date): number {
  return WEEKDAYS.indexOf(new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }).format(instant));
}
