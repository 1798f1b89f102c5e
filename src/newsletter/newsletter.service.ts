import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { AppConfig } from '@app/config/app-config.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import { MailService } from '@app/mail/mail.service.js';
import { normalizeEmail } from '@app/teams/email-address.js';
import { NewsletterRepository } from './newsletter.repository.js';

/** Confirmation mails one address may be sent per window (its budget; the per-IP one is a rate-limit rule). */
export const MAILS_PER_ADDRESS = 3;
export const ADDRESS_WINDOW_SECONDS = 24 * 3600;

/** The API path of one-click unsubscribe (RFC 8058), taking form posts. */
export const UNSUBSCRIBE_PATH = '/api/newsletter/unsubscribe';

/** SHA-256 of a token, hex: what the database keeps. */
function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The public newsletter (issue 27, spec "Newsletter"): double opt-in, one-click unsubscribe
 * (RFC 8058; `List-Unsubscribe`, RFC 2369, on every newsletter mail), no enumeration (the same
 * answer whether or not an address is known). Tokens are 256 random bits, stored hashed.
 */
@Injectable()
export class NewsletterService {
  private readonly logger = new Logger(NewsletterService.name);

  constructor(
    private readonly subscribers: NewsletterRepository,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Sends the address a confirmation mail, unless it is subscribed already or its budget is
   * spent; the caller answers the same either way. A mail that cannot be sent is logged, not thrown.
   */
  async subscribe(address: string): Promise<void> {
    const email = normalizeEmail(address);
    const subscriberId = await this.subscribers.admit(email, MAILS_PER_ADDRESS, ADDRESS_WINDOW_SECONDS);
    if (!subscriberId) return;
    const confirm = await this.newToken(subscriberId, 'confirm');
    const unsubscribe = await this.newToken(subscriberId, 'unsubscribe');
    const confirmUrl = `${this.config.BASE_URL}/api/newsletter/confirm?token=${confirm}`;
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

  /** Confirms the subscription a token names; a bad or used token changes nothing. */
  async confirm(token: unknown): Promise<void> {
    if (typeof token === 'string' && token) await this.subscribers.use('confirm', hashToken(token));
  }

  /** Ends the subscription a token names; a bad or used token changes nothing. */
  async unsubscribe(token: unknown): Promise<void> {
    if (typeof token === 'string' && token) await this.subscribers.use('unsubscribe', hashToken(token));
  }

  private async newToken(subscriberId: string, purpose: 'confirm' | 'unsubscribe'): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.subscribers.addToken(subscriberId, purpose, hashToken(token));
    return token;
  }
}
