import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { nextRunsAfter } from '@app/schedules/next-run.js';
import { FREQUENCIES, type Frequency } from '@app/schedules/frequency.js';
import type { ScheduleSettings } from '@app/schedules/schedule-settings.js';

/**
 * A schedule as the API returns it: the spec's fields (spec "Connections", GET .../schedule),
 * `day_of_week` only when weekly and `day_of_month` only when monthly, plus `next_run_at`.
 */
@ApiSchema({ name: 'Schedule' })
export class ScheduleDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: FREQUENCIES }) frequency!: Frequency;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 23, example: 2 }) hour!: number;
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 6,
    description: 'Weekly schedules only; 0 = Sunday.',
  })
  day_of_week?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 28, description: 'Monthly schedules only.' })
  day_of_month?: number;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty() incremental_enabled!: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 6 }) full_backup_day!: number;
  @ApiProperty({
    description:
      'Beyond the spec: each week, a restore drill reads the latest completed backup end to end (docs/backups.md).',
  })
  verify_weekly!: boolean;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'Beyond the spec: with `verify_weekly`, the weekly drill also restores the backup into this sandbox connection (docs/backups.md "Sandbox drills").',
  })
  verify_sandbox_connection_id!: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    example: 30,
    description:
      'Beyond the spec: the connection\'s own retention in days; null: the plan\'s `retention_days` applies (docs/backups.md "Retention").',
  })
  retention_days!: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    example: 10,
    description:
      'Beyond the spec: the newest completed backups kept however old; null: the plan\'s default, the newest one only (docs/backups.md "Retention").',
  })
  retention_count!: number | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next scheduled backup starts (ISO 8601, UTC); null while disabled.',
  })
  next_run_at!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    isArray: true,
    description:
      "Beyond the spec: the next three scheduled starts (ISO 8601, UTC), the first being next_run_at, each computed in the schedule's time zone; empty while disabled.",
  })
  next_runs!: string[];
}

/** PATCH /api/connections/:id/schedule (spec "Connections"). */
@ApiSchema({ name: 'ScheduleResponse' })
export class ScheduleEnvelopeDto {
  @ApiProperty({ type: ScheduleDto }) schedule!: ScheduleDto;
}

/** How many upcoming runs a schedule answers in `next_runs`. */
const UPCOMING_RUNS = 3;

/**
 * The API shape of a schedule; `next_runs` starts at `nextRunAt` (the stored slot) and continues
 * with the recurrence's following runs (`nextRunsAfter`), none when `nextRunAt` is null (disabled).
 */
export function toScheduleDto(schedule: ScheduleSettings, nextRunAt: Date | null): ScheduleDto {
  return {
    enabled: schedule.enabled,
    frequency: schedule.frequency,
    hour: schedule.hour,
    ...(schedule.dayOfWeek !== null ? { day_of_week: schedule.dayOfWeek } : {}),
    ...(schedule.dayOfMonth !== null ? { day_of_month: schedule.dayOfMonth } : {}),
    timezone: schedule.timezone,
    incremental_enabled: schedule.incrementalEnabled,
    full_backup_day: schedule.fullBackupDay,
    verify_weekly: schedule.verifyWeekly,
    verify_sandbox_connection_id: schedule.verifySandboxConnectionId,
    retention_days: schedule.retentionDays,
    retention_count: schedule.retentionCount,
    next_run_at: nextRunAt?.toISOString() ?? null,
    next_runs: nextRunAt
      ? [nextRunAt, ...nextRunsAfter(schedule, nextRunAt, UPCOMING_RUNS - 1)].map((run) => run.toISOString())
      : [],
  };
}
