import { Module } from '@nestjs/common';
import { MailModule } from '@app/platform/mail/mail.module.js';
import { NewsletterConfirmationJob } from './newsletter-confirmation.job.js';
import { NewsletterController, NewsletterPagesController } from './newsletter.controller.js';
import { NewsletterRepository } from './newsletter.repository.js';
import { NewsletterService } from './newsletter.service.js';

/** The public newsletter (docs/security.md). */
@Module({
  imports: [MailModule],
  controllers: [NewsletterController, NewsletterPagesController],
  providers: [NewsletterService, NewsletterRepository, NewsletterConfirmationJob],
})
export class NewsletterModule {}
