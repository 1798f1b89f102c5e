import { describe, expect, it } from '@jest/globals';
import type { ChangeAttribution } from '@libs/providers/provider-connector.js';
import { AttributionIndex } from './change-attribution.js';

const entry = (
  targetId: string,
  actorId: string,
  changedAt: string,
  resourceType?: string,
): ChangeAttribution => ({
  eventId: `${targetId}-${changedAt}`,
  targetId,
  ...(resourceType ? { resourceType } : {}),
  changedAt,
  eventType: 'x.update',
  byThisService: false,
  actor: { id: actorId, displayName: actorId, type: 'user' },
});

describe('AttributionIndex', () => {
  const index = new AttributionIndex([
    entry('g1', 'olivia', '2026-01-01T10:00:00.000Z', 'group'),
    entry('g1', 'mallory', '2026-01-01T11:00:00.000Z', 'group'),
    entry('u1', 'mallory', '2026-01-01T12:00:00.000Z', 'admin_role_assignment'),
    entry('u1', 'olivia', '2026-01-01T09:00:00.000Z', 'user'),
  ]);

  it('names the last actor of an object, and a child record by the id its event names', () => {
    expect(index.attributionOf('group', 'g1')).toMatchObject({
      attribution: 'recorded',
      changedBy: { id: 'mallory' },
      changedAt: '2026-01-01T11:00:00.000Z',
    });
    // A role grant names the user: it attributes the user's role assignments, not the user.
    expect(index.attributionOf('admin_role_assignment', 'u1:ra1')?.changedBy?.id).toBe('mallory');
    expect(index.attributionOf('user', 'u1')?.changedBy?.id).toBe('olivia');
    expect(index.attributionOf('group', 'g2')).toEqual({
      changedBy: null,
      changedAt: null,
      attribution: 'no_record',
    });
  });

  it('keeps what an actor did in a window, and filters out what nobody named did', () => {
    expect(index.attributionOf('group', 'g1', { actor: 'olivia' })?.changedAt).toBe(
      '2026-01-01T10:00:00.000Z',
    );
    expect(index.attributionOf('group', 'g1', { until: '2026-01-01T10:30:00Z' })?.changedBy?.id).toBe(
      'olivia',
    );
    expect(index.attributionOf('group', 'g1', { since: '2026-01-01T11:30:00Z' })).toBeNull();
    expect(index.attributionOf('group', 'g2', { actor: 'mallory' })).toBeNull();
    expect(index.attributionOf('group', 'g1', {}, { until: '2026-01-01T10:30:00Z' })?.changedBy?.id).toBe(
      'olivia',
    );
  });

  it('says not_available without a log, and filters every change out then', () => {
    const none = new AttributionIndex(undefined);
    expect(none.attributionOf('group', 'g1')?.attribution).toBe('not_available');
    expect(none.attributionOf('group', 'g1', { actor: 'mallory' })).toBeNull();
  });

  it('says not_available with the reason for an object a backup that could not read the log leaves without an entry', () => {
    const reason = 'AuditLog.Read.All is not granted';
    const partly = new AttributionIndex(
      [entry('g1', 'olivia', '2026-01-01T10:00:00.000Z', 'group')],
      undefined,
      [{ backupStartedAt: '2026-01-02T00:00:00.000Z', reason }],
    );
    expect(partly.attributionOf('group', 'g2')).toEqual({
      changedBy: null,
      changedAt: null,
      attribution: 'not_available',
      attributionReason: reason,
    });
    expect(partly.attributionOf('group', 'g1')?.attribution).toBe('recorded');
    // A period the failed read did not cover: the log was read, and held nothing.
    expect(
      partly.attributionOf(
        'group',
        'g2',
        {},
        { since: '2026-01-01T23:00:00Z', until: '2026-01-03T00:00:00Z' },
      )?.attribution,
    ).toBe('not_available');
    expect(partly.attributionOf('group', 'g2', {}, { until: '2026-01-01T23:00:00Z' })?.attribution).toBe(
      'no_record',
    );
    expect(new AttributionIndex(undefined, 'no log').attributionOf('group', 'g1')?.attributionReason).toBe(
      'no log',
    );
  });
});
