import { Cron } from 'croner';
import type { ScheduleSettings } from './schedule-settings.js';

/** What decides when a schedule runs. */
export type Recurrence = Pick<
  ScheduleSettings,
  'frequency' | 'hour' | 'minute' | 'dayOfWeek' | 'dayOfMonth' | 'timezone'
>;

/**
 * The five-field cron pattern of a recurrence (minute hour day-of-month month day-of-week,
 * Sunday = 0), read in the recurrence's time zone.
 * @throws Error for weekly without dayOfWeek or monthly without dayOfMonth (applyScheduleChanges refuses those).
 */
export function cronPattern(recurrence: Recurrence): string {
  const { minute, hour } = recurrence;
  switch (recurrence.frequency) {
    case 'hourly':
      return `${minute} * * * *`;
    case 'daily':
      return `${minute} ${hour} * * *`;
    case 'weekly':
      return `${minute} ${hour} * * ${required(recurrence.dayOfWeek, 'weekly', 'dayOfWeek')}`;
    case 'monthly':
      return `${minute} ${hour} ${required(recurrence.dayOfMonth, 'monthly', 'dayOfMonth')} * *`;
  }
}

/**
 * The first run strictly after `after`, as an instant. Wall-clock times are read in the
 * recurrence's IANA zone by croner, so daylight saving is handled the way docs/schedules.md
 * states: a time skipped by a spring-forward change runs at the first valid minute after the gap
 * (02:30 in Europe/Berlin on the last Sunday of March runs at 03:00 CEST), and a time repeated by
 * a fall-back change runs once, at its first occurrence.
 * @throws Error when the time zone is unknown to the runtime.
 */
export function nextRunAfter(recurrence: Recurrence, after: Date): Date {
  const [next] = nextRunsAfter(recurrence, after, 1);
  return next!;
}

/**
 * The first `count` runs strictly after `after`, as instants in order, by the same rules as
 * {@link nextRunAfter} (croner in the recurrence's IANA zone, daylight saving as docs/schedules.md states).
 * @throws Error when the time zone is unknown to the runtime.
 */
export function nextRunsAfter(recurrence: Recurrence, after: Date, count: number): Date[] {
  const runs = new Cron(cronPattern(recurrence), { timezone: recurrence.timezone }).nextRuns(count, after);
  // Every pattern above matches at least once a month, so croner always finds `count` runs.
  if (runs.length < count)
    throw new Error(`No run after ${after.toISOString()} for ${cronPattern(recurrence)}`);
  return runs;
}

function required(value: number | null, frequency: string, field: string): number {
  if (value === null) throw new Error(`A ${frequency} schedule needs ${field}`);
  return value;
}
