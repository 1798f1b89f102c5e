import type { RecordedAuditEvent } from '@app/audit/audit-entry.js';
import type { NotificationSeverity, NotificationType } from './notification-types.js';

/**
 * Who receives a notification: every member allowed `view notifications`, the team's admins, or
 * the members who may approve a request (`restore`), its requester excepted (docs/approvals.md).
 */
export type Audience = 'members' | 'admins' | 'approvers';

/** A notification to fan out, made from one audit event. */
export interface PlannedNotification {
  eventId: string;
  teamId: string;
  type: NotificationType;
  severity: NotificationSeverity;
  title: string;
  message: string;
  /** the event's target and details (never a secret: AuditService refuses them), and `link` */
  data: Record<string, unknown>;
  /** console path of the object, joined to CONSOLE_URL in e-mail */
  link: string;
  /** backup.completed: the connection's first completed backup */
  first: boolean;
  audience: Audience;
}

type Made = Pick<PlannedNotification, 'type' | 'severity' | 'title' | 'message' | 'link'> & {
  first?: boolean;
  /** set when the audience does not follow the actor (the account's deletion concerns every member) */
  audience?: Audience;
};

const text = (value: unknown, fallback: string): string =>
  typeof value === 'string' && value ? value : fallback;

/**
 * The notification an audit event calls for, or null (docs/notifications.md). An integration
 * client's actions notify the team's admins (a client reads no inbox); everything else, every
 * member whose role has `view notifications`, unless the fan-out finds that a client started the
 * backup or restore whose outcome this is (NotificationFanoutJob). A backup refused by the provider's authentication
 * is `connection.credentials_invalid`, the cause a member can act on, rather than `backup.failed`.
 */
export function notificationFor(event: RecordedAuditEvent): PlannedNotification | null {
  const made = make(event);
  if (!made) return null;
  return {
    eventId: event.id,
    teamId: event.teamId,
    first: false,
    ...made,
    data: { target: event.target, ...event.details, link: made.link },
    audience: made.audience ?? (event.actor.type === 'client' ? 'admins' : 'members'),
  };
}

function make(event: RecordedAuditEvent): Made | null {
  const details = event.details ?? {};
  const org = text(details.org, 'a connection');
  const connectionLink = `/connections/${String(details.connection_id ?? event.target.id)}`;
  switch (event.action) {
    case 'backup.failed':
      if (details.reason === 'credentials_invalid') {
        return {
          type: 'connection.credentials_invalid',
          severity: 'high',
          title: `${text(details.provider, 'The provider')} refused the credentials of ${org}`,
          message: `Backups of ${org} fail until its integration's credentials are fixed: ${text(details.error, 'authentication refused')}`,
          link: connectionLink,
        };
      }
      return {
        type: 'backup.failed',
        severity: 'high',
        title: `Backup of ${org} failed`,
        message: text(details.error, 'The backup failed.'),
        link: `/backups/${event.target.id}`,
      };
    case 'backup.completed':
      return {
        type: 'backup.completed',
        severity: 'info',
        title: details.previous_backup_id ? `Backup of ${org} completed` : `First backup of ${org} completed`,
        message: `${Number(details.resources ?? 0)} resources captured.`,
        link: `/backups/${event.target.id}`,
        first: !details.previous_backup_id,
      };
    case 'schedule.missed':
      return {
        type: 'schedule.missed',
        severity: 'medium',
        title: 'A scheduled backup did not run',
        message: `The slot of ${text(details.slot, 'a schedule')} got no backup: ${text(details.reason, 'unknown reason')}.`,
        link: connectionLink,
      };
    case 'restore.completed':
    case 'restore.partial':
    case 'restore.failed':
      return restoreNotification(event.action, event.target.id, details);
    case 'drift.detected':
      return {
        type: 'drift.detected',
        severity:
          Number((details.by_severity as Record<string, number> | undefined)?.critical ?? 0) > 0
            ? 'critical'
            : 'high',
        title: `Risky changes in ${org} since its previous backup`,
        message: text(details.summary, 'High or critical changes were found.'),
        link: `/diff?fromBackupId=${String(details.from_backup_id)}&toBackupId=${String(details.to_backup_id)}`,
      };
    case 'account.deletion_scheduled':
      return {
        type: 'account.deletion_scheduled',
        severity: 'critical',
        title: 'This account is scheduled for deletion',
        message: `Every connection, backup and record of the team will be erased for good after ${text(details.scheduled_for, 'the 30-day grace period')}. The team's owner can cancel until then.`,
        link: '/settings/account',
        audience: 'members',
      };
    case 'approval.requested':
      return {
        type: 'approval.requested',
        severity: 'high',
        title: 'A request waits for your approval',
        message: `${text(details.summary, 'A request')}. A second member must approve or reject it before it expires.`,
        link: `/approvals/${event.target.id}`,
        audience: 'approvers',
      };
    case 'account.deletion_cancelled':
      return {
        type: 'account.deletion_cancelled',
        severity: 'info',
        title: "This account's deletion was cancelled",
        message: 'The team and its data stay.',
        link: '/settings/account',
        audience: 'members',
      };
    default:
      return null;
  }
}

function restoreNotification(
  action: 'restore.completed' | 'restore.partial' | 'restore.failed',
  restoreId: string | null,
  details: Record<string, unknown>,
): Made {
  const link = `/restores/${restoreId}`;
  if (action === 'restore.failed') {
    return {
      type: action,
      severity: 'high',
      title: 'Restore failed',
      message: text(details.error, 'The restore failed.'),
      link,
    };
  }
  const items = (details.items ?? {}) as Record<string, number>;
  const written = (items.create ?? 0) + (items.update ?? 0) + (items.delete ?? 0);
  return action === 'restore.partial'
    ? {
        type: action,
        severity: 'medium',
        title: 'Restore completed with failures',
        message: `${written} items written, ${items.failed ?? 0} failed.`,
        link,
      }
    : {
        type: action,
        severity: 'info',
        title: 'Restore completed',
        message: `${written} items written.`,
        link,
      };
}
