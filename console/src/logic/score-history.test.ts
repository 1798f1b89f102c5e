import { describe, expect, it } from 'vitest';
import { chartRows, formatDay, seriesRange } from './score-history';

const points = [
  { at: '2026-12-01T00:07:00.000Z', resilience: 60, readiness: 55 },
  { at: '2026-12-02T00:07:00.000Z', resilience: 80, readiness: 40 },
  { at: '2026-12-03T09:30:00.000Z', resilience: 74, readiness: 74 },
];

describe('seriesRange', () => {
  it('gives the first, last, lowest and highest reading of one series', () => {
    expect(seriesRange(points, 'resilience')).toEqual({ first: 60, last: 74, min: 60, max: 80 });
    expect(seriesRange(points, 'readiness')).toEqual({ first: 55, last: 74, min: 40, max: 74 });
  });
  it('is null without readings', () => expect(seriesRange([], 'readiness')).toBeNull());
});

describe('chartRows', () => {
  it('adds each reading’s instant in epoch milliseconds, keeping the order', () => {
    expect(chartRows(points).map((r) => r.t)).toEqual([
      Date.UTC(2026, 11, 1, 0, 7),
      Date.UTC(2026, 11, 2, 0, 7),
      Date.UTC(2026, 11, 3, 9, 30),
    ]);
  });
});

describe('formatDay', () => {
  it('names the day in the given zone', () => {
    const lateOnThe1st = Date.UTC(2026, 11, 1, 23, 30);
    expect(formatDay(lateOnThe1st, 'UTC')).toMatch(/1/);
    expect(formatDay(lateOnThe1st, 'Asia/Tokyo')).toMatch(/2/);
  });
  it('is empty for a value that is no instant', () => expect(formatDay(Number.NaN)).toBe(''));
});
