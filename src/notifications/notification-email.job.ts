import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { MailService } from '@app/platform/mail/mail.service.js';
import { composeNotificationEmail } from './notification-email.js';
import { NotificationsRepository } from './notifications.repository.js';

export const NOTIFICATION_EMAIL_QUEUE = 'notification-email';

export interface NotificationEmailJobData {
  notificationId: string;
}

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'notification-email': NotificationEmailJobData;
  }
}

/**
 * The `notification-email` job: sends one notification's e-mail through MailService (SMTP_URL,
 * or the outbox). The row is claimed (`pending` -> `sending`) before sending and marked `sent`
 * after, so a retried or duplicated job never sends it twice; a send that fails puts it back to
 * `pending` and the job is retried. A worker dying between the send and the mark leaves it
 * `sending`: at most once, never twice.
 */
@Injectable()
export class NotificationEmailJob {
  private readonly logger = new Logger(NotificationEmailJob.name);

  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnJob({ queue: NOTIFICATION_EMAIL_QUEUE, expireInSeconds: 300, retryLimit: 5, retryDelay: 30 })
  async handle(job: Job<'notification-email'>): Promise<void> {
    const claimed = await this.notifications.claimEmail(job.data.notificationId);
    if (!claimed) return;
    const link = typeof claimed.data.link === 'string' ? claimed.data.link : '/';
    try {
      await this.mail.send(
        composeNotificationEmail(claimed.email, { ...claimed, link }, this.config.CONSOLE_URL),
      );
    } catch (error) {
      this.logger.warn(`E-mail of notification ${claimed.id} not sent: ${String(error)}`);
      await this.notifications.settleEmail(claimed.id, 'pending');
      throw error;
    }
    await this.notifications.settleEmail(claimed.id, 'sent');
  }
}
