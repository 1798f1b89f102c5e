import { ValidationError } from '@app/common/errors.js';
import type { UpdateScheduleDto } from './dto/update-schedule.dto.js';
import type { Frequency } from './frequency.js';

/** A connection's backup schedule (spec "Schedule (per connection)"), in the service's own names. */
export interface ScheduleSettings {
  enabled: boolean;
  frequency: Frequency;
  /** 0-23, wall-clock hour in `timezone`; kept but unused while `frequency` is hourly. */
  hour: number;
  /** Minute of the run, always 0: not settable through the API yet, stored so adding it needs no migration. */
  minute: number;
  /** 0 (Sunday) to 6; set exactly when `frequency` is weekly. */
  dayOfWeek: number | null;
  /** 1-28 (every month has it); set exactly when `frequency` is monthly. */
  dayOfMonth: number | null;
  /** IANA time zone name, see `isIanaTimeZone`. */
  timezone: string;
  /** Backups build on the latest completed one (src/backups/backup-planner.ts). */
  incrementalEnabled: boolean;
  /** 0 (Sunday) to 6: every backup of that day, in `timezone`, is full. */
  fullBackupDay: number;
  /**
   * Beyond the spec (docs/backups.md "Verification drills"): a verification drill of the latest completed
   * backup each week.
   */
  verifyWeekly: boolean;
  /**
   * Beyond the spec (docs/backups.md "Sandbox drills"): with `verifyWeekly`, the weekly drill also
   * restores the backup into this connection's org (a sandbox), or null.
   */
  verifySandboxConnectionId: string | null;
  /**
   * Beyond the spec (docs/backups.md "Retention"): keep the connection's backups younger than this
   * many days; null for the plan's `retention_days`. At most the plan's.
   */
  retentionDays: number | null;
  /**
   * Beyond the spec (docs/backups.md "Retention"): keep at least the connection's newest this many
   * completed backups, however old; null for none beyond the newest one. At most the plan's
   * `max_retention_count`.
   */
  retentionCount: number | null;
}

/** The schedule of a connection that never had one saved (docs/schedules.md "Defaults"). */
export const DEFAULT_SCHEDULE: Readonly<ScheduleSettings> = Object.freeze({
  enabled: false,
  frequency: 'daily',
  hour: 2,
  minute: 0,
  dayOfWeek: null,
  dayOfMonth: null,
  timezone: 'UTC',
  incrementalEnabled: true,
  fullBackupDay: 0,
  verifyWeekly: false,
  verifySandboxConnectionId: null,
  retentionDays: null,
  retentionCount: null,
});

/**
 * The schedule after a PATCH: `changes` (already checked field by field by the DTO) over
 * `stored`, then the rules that involve two fields (spec: day_of_week "applies to weekly
 * only", day_of_month "applies to monthly only"; docs/schedules.md for the required days):
 * - a day sent for a frequency it does not apply to is refused, not dropped;
 * - weekly needs a day_of_week and monthly a day_of_month, sent now or already stored;
 * - leaving weekly (monthly) forgets the stored day, so the row never holds a day that does not apply.
 * @throws ValidationError (400 `validation_failed`) with one `{ field, message }` per broken rule.
 */
export function applyScheduleChanges(stored: ScheduleSettings, changes: UpdateScheduleDto): ScheduleSettings {
  const frequency = changes.frequency ?? stored.frequency;
  const dayOfWeek = frequency === 'weekly' ? (changes.day_of_week ?? stored.dayOfWeek) : null;
  const dayOfMonth = frequency === 'monthly' ? (changes.day_of_month ?? stored.dayOfMonth) : null;

  const problems: Array<{ field: string; message: string }> = [];
  if (changes.day_of_week !== undefined && frequency !== 'weekly')
    problems.push({ field: 'day_of_week', message: 'day_of_week applies to weekly schedules only' });
  if (changes.day_of_month !== undefined && frequency !== 'monthly')
    problems.push({ field: 'day_of_month', message: 'day_of_month applies to monthly schedules only' });
  if (frequency === 'weekly' && dayOfWeek === null)
    problems.push({ field: 'day_of_week', message: 'day_of_week is required for a weekly schedule' });
  if (frequency === 'monthly' && dayOfMonth === null)
    problems.push({ field: 'day_of_month', message: 'day_of_month is required for a monthly schedule' });
  if (problems.length) throw new ValidationError(problems.map((p) => p.message).join('; '), problems);

  return {
    enabled: changes.enabled ?? stored.enabled,
    frequency,
    hour: changes.hour ?? stored.hour,
    minute: stored.minute,
    dayOfWeek,
    dayOfMonth,
    timezone: changes.timezone ?? stored.timezone,
    incrementalEnabled: changes.incremental_enabled ?? stored.incrementalEnabled,
    fullBackupDay: changes.full_backup_day ?? stored.fullBackupDay,
    verifyWeekly: changes.verify_weekly ?? stored.verifyWeekly,
    verifySandboxConnectionId:
      changes.verify_sandbox_connection_id === undefined
        ? stored.verifySandboxConnectionId
        : changes.verify_sandbox_connection_id,
    // null is a value here (back to the plan's default), so only an absent field keeps the stored one.
    retentionDays: changes.retention_days === undefined ? stored.retentionDays : changes.retention_days,
    retentionCount: changes.retention_count === undefined ? stored.retentionCount : changes.retention_count,
  };
}
