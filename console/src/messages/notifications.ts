/**
 * The notifications' text: the header's unread badge, the inbox and the preferences
 * (docs/notifications.md). A translation supplies an object of the same shape.
 */
export const notificationsMessages = {
  badge: {
    /** The header link's accessible name; `count` is the number shown (e.g. "99+"). */
    label: (count: string) =>
      count === '0' ? 'Notifications, none unread' : `Notifications, ${count} unread`,
  },
  inbox: {
    title: 'Notifications',
    preferences: 'Notification preferences',
    unreadOnly: 'Unread only',
    markAllRead: 'Mark all read',
    markRead: 'Mark read',
    markReadOf: (title: string) => `Mark read: ${title}`,
    open: 'Open',
    openOf: (title: string) => `Open: ${title}`,
    empty: 'No notifications.',
    emptyUnread: 'No unread notifications.',
    list: 'Notifications',
    unread: 'unread',
    read: 'read',
    loading: 'Loading…',
  },
  preferences: {
    title: 'Notification preferences',
    intro:
      'Which events you hear of, in the console and by e-mail. Types you never changed follow the defaults.',
    table: 'Notification preferences',
    type: 'Event',
    inApp: 'In the console',
    email: 'By e-mail',
    inAppOf: (type: string) => `${type}: in the console`,
    emailOf: (type: string) => `${type}: by e-mail`,
    first: "After a connection's first backup only",
    critical: 'Critical drift only',
    isDefault: 'default',
    save: 'Save preferences',
    saved: 'Preferences saved',
    unchanged: 'Nothing changed',
    back: 'Back to the inbox',
    loading: 'Loading…',
  },
  /** Each notification type's name (the API's `type`). */
  types: {
    'backup.failed': 'Backup failed',
    'backup.completed': 'Backup completed',
    'schedule.missed': 'Scheduled backup missed',
    'restore.completed': 'Restore completed',
    'restore.partial': 'Restore partly failed',
    'restore.failed': 'Restore failed',
    'drift.detected': 'Risky drift detected',
    'connection.credentials_invalid': 'Credentials refused by the provider',
    'account.deletion_scheduled': 'Account deletion scheduled',
    'account.deletion_cancelled': 'Account deletion cancelled',
    'approval.requested': 'A request waits for approval',
  },
} as const;
