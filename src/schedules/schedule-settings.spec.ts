import { describe, expect, it } from '@jest/globals';
import type { ApiError } from '@app/common/errors.js';
import type { UpdateScheduleDto } from './dto/update-schedule.dto.js';
import { applyScheduleChanges as sut, DEFAULT_SCHEDULE, type ScheduleSettings } from './schedule-settings.js';

const weekly: ScheduleSettings = { ...DEFAULT_SCHEDULE, enabled: true, frequency: 'weekly', dayOfWeek: 3 };
const monthly: ScheduleSettings = { ...DEFAULT_SCHEDULE, frequency: 'monthly', dayOfMonth: 15 };

/** The 400's status and `details` when `sut` refuses the changes. */
function refusal(stored: ScheduleSettings, changes: UpdateScheduleDto): unknown {
  try {
    sut(stored, changes);
  } catch (error) {
    const response = (error as ApiError).getResponse() as { code: string; details: unknown };
    return { status: (error as ApiError).getStatus(), code: response.code, details: response.details };
  }
  throw new Error('expected a refusal');
}

describe('applyScheduleChanges', () => {
  it('keeps the stored schedule when nothing is sent', () => {
    expect(sut(DEFAULT_SCHEDULE, {})).toEqual(DEFAULT_SCHEDULE);
  });

  it('reads a retention sent as null as the plan default, and an absent one as unchanged', () => {
    const kept = { ...DEFAULT_SCHEDULE, retentionDays: 30, retentionCount: 5 };
    expect(sut(kept, { hour: 4 })).toMatchObject({ retentionDays: 30, retentionCount: 5 });
    expect(sut(kept, { retention_days: null })).toMatchObject({ retentionDays: null, retentionCount: 5 });
    expect(sut(DEFAULT_SCHEDULE, { retention_count: 7 })).toMatchObject({
      retentionDays: null,
      retentionCount: 7,
    });
  });

  it('applies every field sent, leaving the others as stored', () => {
    expect(
      sut(DEFAULT_SCHEDULE, {
        enabled: true,
        hour: 23,
        timezone: 'Asia/Kolkata',
        incremental_enabled: false,
        full_backup_day: 6,
      }),
    ).toEqual({
      ...DEFAULT_SCHEDULE,
      enabled: true,
      hour: 23,
      timezone: 'Asia/Kolkata',
      incrementalEnabled: false,
      fullBackupDay: 6,
    });
  });

  it('switches to weekly or monthly with the day sent alongside', () => {
    expect(sut(DEFAULT_SCHEDULE, { frequency: 'weekly', day_of_week: 0 })).toMatchObject({
      frequency: 'weekly',
      dayOfWeek: 0,
      dayOfMonth: null,
    });
    expect(sut(DEFAULT_SCHEDULE, { frequency: 'monthly', day_of_month: 28 })).toMatchObject({
      frequency: 'monthly',
      dayOfWeek: null,
      dayOfMonth: 28,
    });
  });

  it('keeps the stored day of a weekly schedule, and lets it change alone', () => {
    expect(sut(weekly, { hour: 4 })).toMatchObject({ frequency: 'weekly', dayOfWeek: 3, hour: 4 });
    expect(sut(weekly, { day_of_week: 6 })).toMatchObject({ frequency: 'weekly', dayOfWeek: 6 });
    expect(sut(monthly, { day_of_month: 1 })).toMatchObject({ frequency: 'monthly', dayOfMonth: 1 });
  });

  it('forgets the day when leaving weekly or monthly, so going back needs it again', () => {
    const daily = sut(weekly, { frequency: 'daily' });
    expect(daily).toMatchObject({ frequency: 'daily', dayOfWeek: null });
    expect(sut(monthly, { frequency: 'hourly' })).toMatchObject({ frequency: 'hourly', dayOfMonth: null });
    expect(refusal(daily, { frequency: 'weekly' })).toEqual({
      status: 400,
      code: 'validation_failed',
      details: [{ field: 'day_of_week', message: 'day_of_week is required for a weekly schedule' }],
    });
  });

  it('refuses weekly without day_of_week and monthly without day_of_month (no silent default day)', () => {
    expect(refusal(DEFAULT_SCHEDULE, { frequency: 'weekly' })).toMatchObject({
      details: [{ field: 'day_of_week', message: 'day_of_week is required for a weekly schedule' }],
    });
    expect(refusal(DEFAULT_SCHEDULE, { frequency: 'monthly' })).toMatchObject({
      details: [{ field: 'day_of_month', message: 'day_of_month is required for a monthly schedule' }],
    });
  });

  it('refuses a day sent for a frequency it does not apply to, judged after merging', () => {
    expect(refusal(DEFAULT_SCHEDULE, { day_of_week: 1 })).toMatchObject({
      status: 400,
      details: [{ field: 'day_of_week', message: 'day_of_week applies to weekly schedules only' }],
    });
    expect(refusal(weekly, { day_of_month: 1 })).toMatchObject({
      details: [{ field: 'day_of_month', message: 'day_of_month applies to monthly schedules only' }],
    });
    expect(refusal(weekly, { frequency: 'daily', day_of_week: 2 })).toMatchObject({
      details: [{ field: 'day_of_week', message: 'day_of_week applies to weekly schedules only' }],
    });
  });

  it('names every broken rule at once', () => {
    expect(refusal(monthly, { frequency: 'weekly', day_of_month: 2 })).toMatchObject({
      details: [
        { field: 'day_of_month', message: 'day_of_month applies to monthly schedules only' },
        { field: 'day_of_week', message: 'day_of_week is required for a weekly schedule' },
      ],
    });
  });
});
