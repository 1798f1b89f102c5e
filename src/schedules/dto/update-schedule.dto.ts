import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsUUID, ValidateBy, ValidateIf } from 'class-validator';
import { FREQUENCIES, type Frequency } from '@app/schedules/frequency.js';
import { isIanaTimeZone } from '@app/schedules/time-zone.js';

/** Every field is optional, but a field that is sent must be valid: `null` is refused, not read as "unset". */
const Sent = (): PropertyDecorator => ValidateIf((_body: object, value: unknown) => value !== undefined);

/** A JSON integer from `min` to `max` (a string such as "3" is refused), one message per field. */
const IntegerFrom = (min: number, max: number, note = ''): PropertyDecorator =>
  applyDecorators(
    Sent(),
    integerFrom(min, max, (property) => `${property} must be an integer from ${min}${note} to ${max}`),
  );

/** Largest retention value accepted at all (days or backups): the columns are PostgreSQL integers. */
const MAX_RETENTION = 2_147_483_647;

/**
 * A JSON integer of at least 1, or `null` for the plan's default (docs/backups.md "Retention");
 * the plan's bound is the service's check (402), not the DTO's.
 */
const RetentionOrNull = (): PropertyDecorator =>
  applyDecorators(
    ValidateIf((_body: object, value: unknown) => value !== undefined && value !== null),
    integerFrom(
      1,
      MAX_RETENTION,
      (property) => `${property} must be an integer of at least 1, or null for the plan's default`,
    ),
  );

/** The check of a JSON integer from `min` to `max`, refused with `message(property)`. */
function integerFrom(min: number, max: number, message: (property: string) => string): PropertyDecorator {
  return ValidateBy({
    name: 'isIntegerFrom',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) =>
        typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max,
      defaultMessage: (args) => message(args?.property ?? ''),
    },
  });
}

/** A JSON boolean (the strings "true" and "false" are refused). */
const Bool = (): PropertyDecorator =>
  applyDecorators(Sent(), IsBoolean({ message: ({ property }) => `${property} must be true or false` }));

const TimeZoneName = (): PropertyDecorator =>
  applyDecorators(
    Sent(),
    ValidateBy({
      name: 'isIanaTimeZone',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isIanaTimeZone(value),
        defaultMessage: () =>
          'timezone must be an IANA time zone name such as Europe/Berlin, not a UTC offset',
      },
    }),
  );

/**
 * Body of PATCH /api/connections/[id]/schedule: any of the Schedule fields (spec "Schedule (per
 * connection)", bounds from spec "Limits"). Unknown fields (`minute`, `next_run_at`) are refused
 * by the global pipe. Rules between fields are checked after merging with the stored schedule
 * (`applyScheduleChanges`).
 */
export class UpdateScheduleDto {
  @ApiPropertyOptional()
  @Bool()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: FREQUENCIES })
  @Sent()
  @IsIn(FREQUENCIES, { message: `frequency must be one of ${FREQUENCIES.join(', ')}` })
  frequency?: Frequency;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 23,
    description: 'Hour in `timezone`; unused by hourly schedules.',
  })
  @IntegerFrom(0, 23)
  hour?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 6,
    description: '0 = Sunday. Weekly only, and required for it.',
  })
  @IntegerFrom(0, 6, ' (Sunday)')
  day_of_week?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 28, description: 'Monthly only, and required for it.' })
  @IntegerFrom(1, 28)
  day_of_month?: number;

  @ApiPropertyOptional({
    example: 'Europe/Berlin',
    description: 'IANA time zone name; UTC offsets are refused.',
  })
  @TimeZoneName()
  timezone?: string;

  @ApiPropertyOptional({
    description:
      "When true, a backup of the connection (scheduled or run by hand) is incremental: it builds on the latest completed one, except on `full_backup_day` in the schedule's time zone, with `forceFullBackup`, or when no usable base exists (docs/backups.md). Default true.",
  })
  @Bool()
  incremental_enabled?: boolean;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 6,
    description:
      "0 = Sunday: with `incremental_enabled`, the weekday (in the schedule's time zone) whose backups are full. Default 0.",
  })
  @IntegerFrom(0, 6, ' (Sunday)')
  full_backup_day?: number;

  @ApiPropertyOptional({
    description:
      'Beyond the spec: a weekly restore drill of the latest completed backup (docs/backups.md). Default false.',
  })
  @Bool()
  verify_weekly?: boolean;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'Beyond the spec: with `verify_weekly`, the weekly drill also restores the backup into this sandbox connection (another of the team, same provider kind, never this one; docs/backups.md "Sandbox drills"); null for none.',
  })
  @IsOptional()
  @IsUUID()
  verify_sandbox_connection_id?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description:
      "Beyond the spec: keep this connection's backups younger than this many days; null for the plan's retention. At most the plan's `retention_days` (402 `limit: retention_days` above it). A backup is deleted only when it is older than these days and not among the newest `retention_count` completed backups (docs/backups.md \"Retention\").",
  })
  @RetentionOrNull()
  retention_days?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description:
      "Beyond the spec: keep at least this connection's newest this many completed backups, however old; null for the plan's default (the newest completed backup only). At most the plan's `retention_count` (402 `limit: retention_count` above it).",
  })
  @RetentionOrNull()
  retention_count?: number | null;
}
