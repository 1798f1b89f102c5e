import { Module } from '@nestjs/common';
import { MailModule } from '@app/platform/mail/mail.module.js';
import { NotificationEmailJob } from './notification-email.job.js';
import { NotificationFanoutJob } from './notification-fanout.job.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

/** In-app notifications and their e-mail, fanned out from audit events (docs/notifications.md). */
@Module({
  imports: [MailModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsRepository, NotificationFanoutJob, NotificationEmailJob],
  exports: [NotificationsService],
})
export class NotificationsModule {}
