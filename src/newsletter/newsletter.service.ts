import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { MailService } from '@app/platform/mail/mail.service.js';
import { normalizeEmail } from '@app/identity/teams/email-address.js';
import { NewsletterRepository } from './newsletter.repository.js';

/** Confirmation mails one address may be sent per window (its budget; the per-IP one is a rate-limit rule). */
export const MAILS_PER_ADDRESS = 3;
export const ADDRESS_WINDOW_SECONDS = 24 * 3600;

/**
 * How long a confirmation link works, seconds. Unsubscribe links do not expire: leaving must stay
 * possible from any mail (RFC 8058), and it can only end a subscription.
 */
export const CONFIRM_TOKEN_SECONDS = 48 * 3600;

/** The API path of one-click unsubscribe (RFC 8058), taking form posts. */
export const UNSUBSCRIBE_PATH = '/api/newsletter/unsubscribe';
/** The API path of the confirmation mail's link (GET: a page; POST: confirms). */
export const CONFIRM_PATH = '/api/newsletter/confirm';

/** SHA-256 of a token, hex: what the database keeps. */
function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The public newsletter (docs/security.md, spec "Newsletter"): double opt-in, one-click unsubscribe
 * (RFC 8058; `List-Unsubscribe`, RFC 2369, on every newsletter mail), no enumeration (the same
 * answer, in the same time, whether or not an address is known). Tokens are 256 random bits,
 * stored hashed. A confirmation link works for CONFIRM_TOKEN_SECONDS and only until the next
 * confirmation round or an unsubscribe, so an old mail cannot turn a later, third party's
 * subscription request into a subscription.
 */
@Injectable()
export class NewsletterService {
  private readonly logger = new Logger(NewsletterService.name);

  constructor(
    private readonly subscribers: NewsletterRepository,
    private readonly mail: MailService,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Queues the subscription's work (NewsletterConfirmationJob): the same one insert for every
   * address, so neither the answer nor its time tells a subscribed address from a new one.
   */
  async subscribe(address: string): Promise<void> {
    await this.jobs.send('newsletter-confirmation', { email: normalizeEmail(address) });
  }

  /**
   * Sends the address a confirmation mail, unless it is subscribed already or its budget is
   * spent; the confirmation links of earlier mails stop working. A mail that cannot be sent is
   * logged, not thrown.
   */
  async sendConfirmation(email: string): Promise<void> {
    const subscriberId = await this.subscribers.admit(email, MAILS_PER_ADDRESS, ADDRESS_WINDOW_SECONDS);
    if (!subscriberId) return;
    await this.subscribers.voidConfirmTokens(subscriberId);
    const confirm = await this.newToken(subscriberId, 'confirm');
    const unsubscribe = await this.newToken(subscriberId, 'unsubscribe');
    const confirmUrl = `${this.config.BASE_URL}${CONFIRM_PATH}?token=${confirm}`;
    const unsubscribeUrl = `${this.config.BASE_URL}${UNSUBSCRIBE_PATH}?token=${unsubscribe}`;
    try {
      await this.mail.send({
        to: email,
        subject: 'Confirm your newsletter subscription',
        text: `Someone, hopefully you, asked to receive the idp-backup newsletter at this address.\n\nConfirm: ${confirmUrl}\n\nNot you? Ignore this mail, or unsubscribe: ${unsubscribeUrl}\n`,
        headers: {
          'List-Unsubscribe': `<${unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    } catch (error) {
      this.logger.warn(`Newsletter confirmation mail not sent: ${(error as Error).message}`);
    }
  }

  /** Confirms the subscription a token names; a bad, used, voided or expired token changes nothing. */
  async confirm(token: unknown): Promise<void> {
    if (typeof token === 'string' && token)
      await this.subscribers.use('confirm', hashToken(token), CONFIRM_TOKEN_SECONDS);
  }

  /**
   * Ends the subscription a token names, and voids its unused confirmation links; a bad or used
   * token changes nothing.
   */
  async unsubscribe(token: unknown): Promise<void> {
    if (typeof token === 'string' && token)
      await this.subscribers.use('unsubscribe', hashToken(token), CONFIRM_TOKEN_SECONDS);
  }

  private async newToken(subscriberId: string, purpose: 'confirm' | 'unsubscribe'): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.subscribers.addToken(subscriberId, purpose, hashToken(token));
    return token;
  }
}
