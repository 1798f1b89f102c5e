import { describe, expect, it } from '@jest/globals';
import type { RecordedAuditEvent } from '@app/audit/audit-entry.js';
import { notificationFor } from './notification-rules.js';
import { defaultDelivery } from './notification-types.js';

const event = (overrides: Partial<RecordedAuditEvent>): RecordedAuditEvent => ({
  id: 'e1',
  occurredAt: new Date(0),
  teamId: 't1',
  actor: { type: 'system', id: null },
  action: 'backup.failed',
  target: { type: 'backup', id: 'b1' },
  outcome: 'failure',
  details: { connection_id: 'c1', org: 'Acme', error: 'Okta answered 500' },
  ...overrides,
});

describe('notificationFor', () => {
  it('makes a failed backup a high backup.failed linking to the backup', () => {
    const sut = notificationFor(event({}));
    expect(sut).toMatchObject({
      type: 'backup.failed',
      severity: 'high',
      title: 'Backup of Acme failed',
      message: 'Okta answered 500',
      link: '/backups/b1',
      audience: 'members',
    });
  });

  it('names refused credentials connection.credentials_invalid, linking to the connection', () => {
    const sut = notificationFor(
      event({
        details: { connection_id: 'c1', org: 'Acme', reason: 'credentials_invalid', provider: 'Okta' },
      }),
    );
    expect(sut).toMatchObject({
      type: 'connection.credentials_invalid',
      title: 'Okta refused the credentials of Acme',
      link: '/connections/c1',
    });
  });

  it("sends an integration client's actions to the admins", () => {
    expect(notificationFor(event({ actor: { type: 'client', id: 'u1', clientId: 'x' } }))?.audience).toBe(
      'admins',
    );
  });

  it('marks the first completed backup of a connection, and rates drift critical when a change is', () => {
    const first = notificationFor(
      event({ action: 'backup.completed', details: { previous_backup_id: null } }),
    );
    expect(first).toMatchObject({ type: 'backup.completed', first: true, severity: 'info' });
    const drift = notificationFor(
      event({ action: 'drift.detected', details: { by_severity: { critical: 1, high: 2 }, summary: 's' } }),
    );
    expect(drift).toMatchObject({ type: 'drift.detected', severity: 'critical', message: 's' });
  });

  it('calls for nothing on events no member needs to hear of', () => {
    expect(notificationFor(event({ action: 'connection.updated' }))).toBeNull();
  });
});

describe('defaultDelivery', () => {
  it('e-mails failures and critical drift, shows later completed backups only on request', () => {
    expect(defaultDelivery('backup.failed', 'high', false)).toEqual({ inApp: true, email: true });
    expect(defaultDelivery('drift.detected', 'critical', false)).toEqual({ inApp: true, email: true });
    expect(defaultDelivery('drift.detected', 'high', false)).toEqual({ inApp: true, email: false });
    expect(defaultDelivery('backup.completed', 'info', true)).toEqual({ inApp: true, email: false });
    expect(defaultDelivery('backup.completed', 'info', false)).toEqual({ inApp: false, email: false });
    expect(defaultDelivery('restore.completed', 'info', false)).toEqual({ inApp: true, email: false });
  });
});
