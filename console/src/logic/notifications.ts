import type { Schemas } from '../api/client';

/** One notification type's preference as the API answers it (`GET /api/notifications/preferences`). */
export type Preference = Schemas['NotificationPreference'];
/** A notification type (docs/notifications.md). */
export type NotificationType = Preference['type'];
/** A change `PATCH /api/notifications/preferences` accepts: only booleans can be set. */
export type PreferenceChange = Schemas['PreferenceChangeDto'];
/** What the form holds per type: the saved values until the person changes one. */
export type PreferenceDraft = Record<string, Pick<Preference, 'in_app' | 'email'>>;

/** The most unread notifications the header's badge counts; beyond, it shows "99+". */
export const UNREAD_BADGE_CAP = 100;

/**
 * The badge's text for `count` unread notifications read with `limit=cap`: the count, or
 * `${cap - 1}+` once the page is full (there may be more than one page holds).
 */
export function unreadBadgeText(count: number, cap: number = UNREAD_BADGE_CAP): string {
  return count >= cap ? `${cap - 1}+` : String(count);
}

/** The form's starting state: each type's saved values. */
export function preferenceDraft(saved: Preference[]): PreferenceDraft {
  return Object.fromEntries(saved.map(({ type, in_app, email }) => [type, { in_app, email }]));
}

/**
 * The changes to send: per type, only the fields the draft sets to a boolean other than the saved
 * value (the defaults `first` and `critical` cannot be set, only kept). Types unchanged are left
 * out, so a type never touched keeps following the defaults.
 */
export function preferenceChanges(saved: Preference[], draft: PreferenceDraft): PreferenceChange[] {
  const changes: PreferenceChange[] = [];
  for (const preference of saved) {
    const next = draft[preference.type];
    if (!next) continue;
    const change: PreferenceChange = { type: preference.type };
    if (typeof next.in_app === 'boolean' && next.in_app !== preference.in_app) change.in_app = next.in_app;
    if (typeof next.email === 'boolean' && next.email !== preference.email) change.email = next.email;
    if (change.in_app !== undefined || change.email !== undefined) changes.push(change);
  }
  return changes;
}

/**
 * The console path a notification links to, from its `data.link` (docs/notifications.md), or
 * null when it has none or it leaves the console (an absolute or protocol-relative URL). The
 * API's links name objects; two have no screen of that address here and lead to the one that
 * shows them: a connection's (`/connections/<id>`) to the connections, a drift's
 * (`/diff?fromBackupId=&toBackupId=`) to compare.
 */
export function notificationLink(data: Record<string, unknown>): string | null {
  const link = data.link;
  if (typeof link !== 'string' || !link.startsWith('/') || link.startsWith('//')) return null;
  const url = new URL(link, 'http://console.invalid');
  if (/^\/connections\/[^/]+$/.test(url.pathname)) return '/connections';
  if (url.pathname === '/diff') return compareLink(url.searchParams);
  return link;
}

/** The compare screen's address for the API's diff query (`fromBackupId`, `toBackupId`). */
export function compareLink(query: URLSearchParams): string {
  const compare = new URLSearchParams();
  const from = query.get('fromBackupId');
  const to = query.get('toBackupId');
  if (from) compare.set('from', from);
  if (to) compare.set('to', to);
  return `/compare?${compare.toString()}`;
}
