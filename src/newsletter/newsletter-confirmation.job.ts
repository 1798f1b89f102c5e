import { Injectable } from '@nestjs/common';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { NewsletterService } from './newsletter.service.js';

export const NEWSLETTER_CONFIRMATION_QUEUE = 'newsletter-confirmation';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    /** `email` normalized (lower case, trimmed) */
    'newsletter-confirmation': { email: string };
  }
}

/**
 * The `newsletter-confirmation` job: the work of a subscription (budget, tokens, the mail) done
 * after the request has been answered, so that the answer takes the same time whether the address
 * is new, pending or already subscribed (no enumeration by timing). A mail that cannot be sent is
 * logged by the service, not retried: a retry would spend the address's budget again.
 */
@Injectable()
export class NewsletterConfirmationJob {
  constructor(private readonly newsletter: NewsletterService) {}

  @OnJob({ queue: NEWSLETTER_CONFIRMATION_QUEUE, expireInSeconds: 300, retryLimit: 0, retryDelay: 0 })
  async handle(job: Job<'newsletter-confirmation'>): Promise<void> {
    await this.newsletter.sendConfirmation(job.data.email);
  }
}
