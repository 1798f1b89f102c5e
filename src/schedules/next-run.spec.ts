import { describe, expect, it } from '@jest/globals';
import { cronPattern, nextRunAfter, type Recurrence } from './next-run.js';

const daily = (hour: number, timezone: string, minute = 0): Recurrence => ({
  frequency: 'daily',
  hour,
  minute,
  dayOfWeek: null,
  dayOfMonth: null,
  timezone,
});

/** The next `count` runs after `from`, as ISO instants. */
function runs(sut: Recurrence, from: string, count: number): string[] {
  const out: string[] = [];
  let after = new Date(from);
  for (let i = 0; i < count; i++) {
    after = nextRunAfter(sut, after);
    out.push(after.toISOString());
  }
  return out;
}

describe('cronPattern', () => {
  it.each<[Recurrence, string]>([
    [{ ...daily(5, 'UTC'), frequency: 'hourly' }, '0 * * * *'],
    [daily(5, 'UTC'), '0 5 * * *'],
    [{ ...daily(5, 'UTC'), frequency: 'weekly', dayOfWeek: 0 }, '0 5 * * 0'],
    [{ ...daily(23, 'UTC'), frequency: 'monthly', dayOfMonth: 28 }, '0 23 28 * *'],
  ])('%j -> %s', (sut, pattern) => {
    expect(cronPattern(sut)).toBe(pattern);
  });

  it('refuses a weekly recurrence without its day', () => {
    expect(() => cronPattern({ ...daily(5, 'UTC'), frequency: 'weekly' })).toThrow(/dayOfWeek/);
  });
});

describe('nextRunAfter', () => {
  it('is strictly after the given instant', () => {
    const sut = daily(2, 'UTC');
    expect(nextRunAfter(sut, new Date('2026-01-01T01:59:59.999Z')).toISOString()).toBe(
      '2026-01-01T02:00:00.000Z',
    );
    expect(nextRunAfter(sut, new Date('2026-01-01T02:00:00.000Z')).toISOString()).toBe(
      '2026-01-02T02:00:00.000Z',
    );
  });

  it('Europe/Berlin spring forward (29 March 2026): 02:30 does not exist, the run moves to 03:00 CEST', () => {
    expect(runs(daily(2, 'Europe/Berlin', 30), '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET (UTC+1)
      '2026-03-29T01:00:00.000Z', // 03:00 CEST, the first minute after the gap
      '2026-03-30T00:30:00.000Z', // 02:30 CEST (UTC+2)
    ]);
  });

  it('Europe/Berlin fall back (25 October 2026): 02:30 happens twice, the run happens once, at the first', () => {
    expect(runs(daily(2, 'Europe/Berlin', 30), '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST; 02:30 CET (01:30Z) is not a second run
      '2026-10-26T01:30:00.000Z', // 02:30 CET
    ]);
  });

  it('America/New_York keeps 02:00 local across spring forward and 01:00 once across fall back', () => {
    expect(runs(daily(2, 'America/New_York'), '2026-03-07T00:00:00Z', 3)).toEqual([
      '2026-03-07T07:00:00.000Z', // 02:00 EST
      '2026-03-08T07:00:00.000Z', // 02:00 does not exist: 03:00 EDT
      '2026-03-09T06:00:00.000Z', // 02:00 EDT
    ]);
    expect(runs(daily(1, 'America/New_York'), '2026-11-01T00:00:00Z', 2)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT; 01:00 EST (06:00Z) is not a second run
      '2026-11-02T06:00:00.000Z', // 01:00 EST
    ]);
  });

  it('Asia/Kolkata (UTC+05:30, no DST): 02:00 local is 20:30 UTC the day before; hourly runs at :30 UTC', () => {
    expect(runs(daily(2, 'Asia/Kolkata'), '2026-06-01T00:00:00Z', 2)).toEqual([
      '2026-06-01T20:30:00.000Z',
      '2026-06-02T20:30:00.000Z',
    ]);
    expect(runs({ ...daily(2, 'Asia/Kolkata'), frequency: 'hourly' }, '2026-06-01T00:00:00Z', 2)).toEqual([
      '2026-06-01T00:30:00.000Z',
      '2026-06-01T01:30:00.000Z',
    ]);
  });

  it('hourly runs at the top of every hour, whatever the hour field says', () => {
    expect(runs({ ...daily(17, 'UTC'), frequency: 'hourly' }, '2026-01-01T10:15:00Z', 3)).toEqual([
      '2026-01-01T11:00:00.000Z',
      '2026-01-01T12:00:00.000Z',
      '2026-01-01T13:00:00.000Z',
    ]);
  });

  it('weekly counts Sunday as 0', () => {
    // 1 January 2026 is a Thursday.
    const weekly = (dayOfWeek: number): Recurrence => ({
      ...daily(2, 'UTC'),
      frequency: 'weekly',
      dayOfWeek,
    });
    expect(runs(weekly(0), '2026-01-01T00:00:00Z', 2)).toEqual([
      '2026-01-04T02:00:00.000Z',
      '2026-01-11T02:00:00.000Z',
    ]);
    expect(runs(weekly(6), '2026-01-01T00:00:00Z', 1)).toEqual(['2026-01-03T02:00:00.000Z']);
  });

  it('monthly on the 28th runs every month, February included', () => {
    const sut: Recurrence = { ...daily(2, 'Europe/Berlin'), frequency: 'monthly', dayOfMonth: 28 };
    expect(runs(sut, '2026-01-29T00:00:00Z', 3)).toEqual([
      '2026-02-28T01:00:00.000Z', // 02:00 CET
      '2026-03-28T01:00:00.000Z', // 02:00 CET (the change is on the 29th)
      '2026-04-28T00:00:00.000Z', // 02:00 CEST
    ]);
  });

  it('throws for a time zone the runtime does not know', () => {
    expect(() => nextRunAfter(daily(2, 'Mars/Olympus_Mons'), new Date())).toThrow(/Mars\/Olympus_Mons/);
  });
});
