import { Injectable } from '@nestjs/common';
import type { RecordedAuditEvent } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { Permission, type Role, ROLES, roleHasPermission } from '@app/common/permission.js';
import { sqlExecutor, type Transaction, TransactionRunner } from '@app/platform/database/transaction.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { NOTIFICATION_EMAIL_QUEUE, type NotificationEmailJobData } from './notification-email.job.js';
import { type Audience, notificationFor, type PlannedNotification } from './notification-rules.js';
import { defaultDelivery } from './notification-types.js';
import { NotificationsRepository } from './notifications.repository.js';

export const NOTIFICATION_FANOUT_QUEUE = 'notification-fanout';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'notification-fanout': PlannedNotification;
  }
}

/** Roles that receive the team's notifications (`view notifications`, DESIGN section 3). */
const MEMBER_ROLES = ROLES.filter((role) => roleHasPermission(role, Permission.ViewNotifications));
/** The team's admins, who are told of what its integration clients did. */
const ADMIN_ROLES = MEMBER_ROLES.filter((role) => role === 'super_admin' || role === 'admin');

/** The members who may approve a request held for a second person (docs/approvals.md). */
const APPROVER_ROLES = MEMBER_ROLES.filter((role) => roleHasPermission(role, Permission.Restore));

/** The roles of each audience. */
const AUDIENCE_ROLES: Record<Audience, readonly Role[]> = {
  members: MEMBER_ROLES,
  admins: ADMIN_ROLES,
  approvers: APPROVER_ROLES,
};

/** Targets whose outcome events follow a `*.started` event naming who started them. */
const STARTED_WORK: ReadonlySet<string> = new Set(['backup', 'restore']);

/**
 * The `notification-fanout` job (docs/notifications.md): each audit event that calls for a notification
 * enqueues one, in the event's own transaction (so it exists exactly when the event does), never
 * delivered in the request or the backup's hot path. The job inserts one row per recipient and
 * enqueues one `notification-email` job per e-mail, both in one transaction; a retried job
 * inserts and enqueues nothing twice (unique (event_id, user_id), DO NOTHING).
 */
@Injectable()
export class NotificationFanoutJob {
  constructor(
    private readonly jobs: JobsService,
    private readonly notifications: NotificationsRepository,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditService,
  ) {
    audit.onRecorded((tx, event) => this.enqueue(tx, event));
  }

  /** The outcome of a backup or restore an integration client started is the admins' to hear of, as the client's own actions are. */
  private async audienceOf(notification: PlannedNotification): Promise<Audience> {
    const target = notification.data.target as { type: string; id: string | null };
    if (notification.audience !== 'members' || !STARTED_WORK.has(target.type) || !target.id)
      return notification.audience;
    const starter = await this.audit.firstActorOf(notification.teamId, target.id);
    return starter?.type === 'client' ? 'admins' : 'members';
  }

  private async enqueue(tx: Transaction, event: RecordedAuditEvent): Promise<void> {
    const notification = notificationFor(event);
    if (notification) await this.jobs.sendWithin(sqlExecutor(tx), NOTIFICATION_FANOUT_QUEUE, [notification]);
  }

  @OnJob({ queue: NOTIFICATION_FANOUT_QUEUE, expireInSeconds: 600, retryLimit: 5, retryDelay: 5 })
  async handle(job: Job<'notification-fanout'>): Promise<void> {
    await this.fanOut(job.data);
  }

  /**
   * Delivers one notification to its audience. Public for the benchmark, which times it.
   * @returns how many rows were inserted with an e-mail to send
   */
  async fanOut(notification: PlannedNotification): Promise<number> {
    const audience = await this.audienceOf(notification);
    const defaults = defaultDelivery(notification.type, notification.severity, notification.first);
    // The requester never approves their own request, so is not asked to.
    const except = audience === 'approvers' ? String(notification.data.requested_by ?? '') || null : null;
    return this.transactions.run(async (tx) => {
      const emails = await this.notifications.fanOut(
        tx,
        notification,
        AUDIENCE_ROLES[audience],
        defaults,
        except,
      );
      const jobs = emails.map((notificationId): NotificationEmailJobData => ({ notificationId }));
      await this.jobs.sendWithin(sqlExecutor(tx), NOTIFICATION_EMAIL_QUEUE, jobs);
      return emails.length;
    });
  }
}
