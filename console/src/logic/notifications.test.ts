import { describe, expect, it } from 'vitest';
import {
  notificationLink,
  preferenceChanges,
  preferenceDraft,
  unreadBadgeText,
  type Preference,
} from './notifications';

const saved: Preference[] = [
  { type: 'backup.failed', in_app: true, email: true, default: true },
  { type: 'backup.completed', in_app: 'first', email: false, default: true },
  { type: 'drift.detected', in_app: true, email: 'critical', default: true },
];

describe('unreadBadgeText', () => {
  it('shows the count below the cap, and cap - 1 with a plus once the page is full', () => {
    expect(unreadBadgeText(0)).toBe('0');
    expect(unreadBadgeText(7)).toBe('7');
    expect(unreadBadgeText(99)).toBe('99');
    expect(unreadBadgeText(100)).toBe('99+');
    expect(unreadBadgeText(10, 10)).toBe('9+');
  });
});

describe('preferenceChanges', () => {
  it('sends nothing for an untouched draft', () => {
    expect(preferenceChanges(saved, preferenceDraft(saved))).toEqual([]);
  });

  it('sends only the fields changed, per type', () => {
    const draft = preferenceDraft(saved);
    draft['backup.failed'] = { in_app: true, email: false };
    draft['backup.completed'] = { in_app: true, email: false };
    expect(preferenceChanges(saved, draft)).toEqual([
      { type: 'backup.failed', email: false },
      { type: 'backup.completed', in_app: true },
    ]);
  });

  it('keeps a default that cannot be set (first, critical) out of the change', () => {
    const draft = preferenceDraft(saved);
    draft['drift.detected'] = { in_app: false, email: 'critical' };
    expect(preferenceChanges(saved, draft)).toEqual([{ type: 'drift.detected', in_app: false }]);
  });
});

describe('notificationLink', () => {
  it('answers the console path of data.link, and null for anything that leaves the console', () => {
    expect(notificationLink({ link: '/backups/42' })).toBe('/backups/42');
    expect(notificationLink({})).toBeNull();
    expect(notificationLink({ link: 'https://evil.example/' })).toBeNull();
    expect(notificationLink({ link: '//evil.example/' })).toBeNull();
    expect(notificationLink({ link: 3 })).toBeNull();
  });
  it('leads the links to objects without a screen of their own to the screen that shows them', () => {
    expect(notificationLink({ link: '/connections/0d6c2a8e' })).toBe('/connections');
    expect(notificationLink({ link: '/diff?fromBackupId=a1&toBackupId=b2' })).toBe('/compare?from=a1&to=b2');
    expect(notificationLink({ link: '/restores/r1' })).toBe('/restores/r1');
  });
});
