import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorName,
  auditPackFilename,
  auditQuery,
  detailsText,
  exportPeriod,
  localDay,
  localToIso,
  newerPage,
  olderPage,
  type AuditFilters,
} from './audit';

// Node re-reads TZ when it changes: the reader's zone is Paris (UTC+1 in winter) here.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Paris';
});
afterAll(() => {
  process.env.TZ = zone;
});

const none: AuditFilters = { from: '', to: '', action: null, actorId: '', targetId: '', limit: 25 };

describe('localToIso', () => {
  it("reads a datetime-local value in the reader's zone", () => {
    expect(localToIso('2026-12-07T10:30')).toBe('2026-12-07T09:30:00.000Z');
  });
  it('answers undefined for an empty or unreadable value', () => {
    expect(localToIso('')).toBeUndefined();
    expect(localToIso('yesterday-ish')).toBeUndefined();
  });
});

describe('auditQuery', () => {
  it('sends only the limit when nothing is filtered', () => {
    expect(auditQuery(none, null)).toEqual({ limit: 25 });
  });
  it('sends every filter set, trimmed, the instants in UTC, and the cursor', () => {
    expect(
      auditQuery(
        {
          from: '2026-12-01T00:00',
          to: '2026-12-08T00:00',
          action: 'backup.failed',
          actorId: ' 6f1c0a8d-2f3e-4b4e-9f51-0d6c2a8e5a5b ',
          targetId: '',
          limit: 10,
        },
        'cursor-2',
      ),
    ).toEqual({
      from: '2026-11-30T23:00:00.000Z',
      to: '2026-12-07T23:00:00.000Z',
      action: 'backup.failed',
      actorId: '6f1c0a8d-2f3e-4b4e-9f51-0d6c2a8e5a5b',
      limit: 10,
      after: 'cursor-2',
    });
  });
});

describe('cursor trail', () => {
  it('goes older with each nextAfter and back with the very cursors it used', () => {
    const first = [null];
    const second = olderPage(first, 'a');
    const third = olderPage(second, 'b');
    expect(third).toEqual([null, 'a', 'b']);
    expect(newerPage(third)).toEqual([null, 'a']);
    expect(newerPage(newerPage(third))).toEqual([null]);
    expect(newerPage([null])).toEqual([null]);
  });
});

describe('actorName', () => {
  const text = { system: 'system', schedule: 'schedule', client: (id: string) => `client ${id}` };
  it('prefers the e-mail, then the client, then the kind', () => {
    expect(actorName({ type: 'user', id: 'u1', email: 'a@example.com' }, text)).toBe('a@example.com');
    expect(actorName({ type: 'client', id: 'u1', client_id: 'c1' }, text)).toBe('client c1');
    expect(actorName({ type: 'schedule', id: null }, text)).toBe('schedule');
    expect(actorName({ type: 'system', id: null }, text)).toBe('system');
  });
});

describe('detailsText', () => {
  it('writes key: value pairs, strings bare and the rest as JSON', () => {
    expect(detailsText({ hour: 14, enabled: false, timezone: 'UTC', counts: { user: 2 } })).toBe(
      'hour: 14, enabled: false, timezone: UTC, counts: {"user":2}',
    );
    expect(detailsText({})).toBe('');
  });
});

describe('exportPeriod', () => {
  it('runs from the first local midnight to the midnight after the last day', () => {
    expect(exportPeriod('2026-12-01', '2026-12-07')).toEqual({
      from: '2026-11-30T23:00:00.000Z',
      to: '2026-12-07T23:00:00.000Z',
      last: '2026-12-07T22:59:59.999Z',
    });
  });
  it('answers undefined for a missing day', () => {
    expect(exportPeriod('', '2026-12-07')).toBeUndefined();
    expect(exportPeriod('2026-12-01', 'soon')).toBeUndefined();
  });
  it("names local days in the reader's zone", () => {
    expect(localDay(new Date('2026-12-06T23:30:00Z'))).toBe('2026-12-07');
  });
});

describe('auditPackFilename', () => {
  it('names the UTC days of the period as the API does', () => {
    expect(auditPackFilename('2026-11-30T23:00:00.000Z', '2026-12-07T22:59:59.999Z')).toBe(
      'audit-pack-20261130-20261207.zip',
    );
  });
});
