import { describe, expect, it } from 'vitest';
import { EXPORT_INTERVAL_MS, exportAvailability } from './export-availability';

const now = Date.parse('2026-12-07T17:00:00Z');

describe('exportAvailability', () => {
  it('allows an export when none was made this week and the month has room', () => {
    expect(exportAvailability(null, 0, 1, now)).toEqual({ state: 'available' });
    expect(exportAvailability('2026-11-30T16:59:59Z', 0, null, now)).toEqual({ state: 'available' });
  });

  it('waits 7 days after the last export', () => {
    expect(exportAvailability('2026-12-05T10:00:00Z', 1, 4, now)).toEqual({
      state: 'weekly',
      nextAt: '2026-12-12T10:00:00.000Z',
    });
    expect(exportAvailability(new Date(now - EXPORT_INTERVAL_MS).toISOString(), 1, 4, now)).toEqual({
      state: 'available',
    });
  });

  it("waits for the next UTC month once the plan's monthly exports are used", () => {
    expect(exportAvailability('2026-12-01T00:00:00Z', 1, 1, now)).toEqual({
      state: 'monthly',
      nextAt: '2027-01-01T00:00:00.000Z',
    });
  });

  it('names the later of the two when both hold', () => {
    const lateInMonth = Date.parse('2026-12-29T12:00:00Z');
    expect(exportAvailability('2026-12-28T12:00:00Z', 1, 1, lateInMonth)).toEqual({
      state: 'weekly',
      nextAt: '2027-01-04T12:00:00.000Z',
    });
  });
});
