/**
 * Every notification type (docs/notifications.md); `account.deletion_*` are raised by the
 * account's deletion (docs/account.md). `export.ready` joins when that feature lands.
 */
export const NOTIFICATION_TYPES = [
  'backup.failed',
  'backup.completed',
  'schedule.missed',
  'restore.completed',
  'restore.partial',
  'restore.failed',
  'drift.detected',
  'connection.credentials_invalid',
  'account.deletion_scheduled',
  'account.deletion_cancelled',
  'approval.requested',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type NotificationSeverity = (typeof SEVERITIES)[number];

/** Whether a member gets a notification in the console and by e-mail. */
export interface Delivery {
  inApp: boolean;
  email: boolean;
}

/** Types whose default is an e-mail as well: the failures (docs/notifications.md). */
const FAILURES: ReadonlySet<NotificationType> = new Set([
  'backup.failed',
  'schedule.missed',
  'restore.partial',
  'restore.failed',
  'connection.credentials_invalid',
]);

/**
 * Spec "Events": account notifications are e-mailed as well (docs/account.md: every member hears of a
 * deletion).
 */
const ACCOUNT: ReadonlySet<NotificationType> = new Set([
  'account.deletion_scheduled',
  'account.deletion_cancelled',
  // A request waits for a second member: the approvers hear of it at once (docs/approvals.md).
  'approval.requested',
]);

/** A type's default, as the preferences show it: `first` and `critical` name the rule it follows. */
export interface DefaultPreference {
  inApp: true | 'first';
  email: boolean | 'critical';
}

/**
 * A type's delivery when the member saved no choice: in the console, a backup completed only
 * when it is the connection's first (later ones only on request); by e-mail the failures and
 * critical drift (docs/notifications.md).
 */
export function defaultPreference(type: NotificationType): DefaultPreference {
  return {
    inApp: type === 'backup.completed' ? 'first' : true,
    email: FAILURES.has(type) || ACCOUNT.has(type) ? true : type === 'drift.detected' ? 'critical' : false,
  };
}

/** The default delivery of one notification of `type`, its rules applied. */
export function defaultDelivery(
  type: NotificationType,
  severity: NotificationSeverity,
  first: boolean,
): Delivery {
  const preference = defaultPreference(type);
  return {
    inApp: preference.inApp === 'first' ? first : preference.inApp,
    email: preference.email === 'critical' ? severity === 'critical' : preference.email,
  };
}

/** Whether `value` names a notification type. */
export function isNotificationType(value: unknown): value is NotificationType {
  return typeof value === 'string' && (NOTIFICATION_TYPES as readonly string[]).includes(value);
}
