import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { MailService } from '@app/platform/mail/mail.service.js';
import { SessionsService } from '@app/identity/sessions/sessions.service.js';
import { EmailCodesService } from '@app/identity/sign-in/email-codes.service.js';
import { OidcPayloadsRepository } from './oidc-payloads.repository.js';

/** How often expired authentication state is deleted, ms. */
const PURGE_INTERVAL_MS = 15 * 60 * 1000;

/**
 * Deletes expired authentication state every 15 minutes (@nestjs/schedule `@Interval`, on every
 * replica: each purge is one idempotent DELETE, so replicas purging together only repeat work):
 * oidc-provider artifacts, sessions past a timeout, spent e-mail codes, day-old outbox e-mail.
 * Reads already ignore expired rows; this only reclaims space.
 */
@Injectable()
export class AuthStatePurger {
  private readonly logger = new Logger(AuthStatePurger.name);

  constructor(
    private readonly payloads: OidcPayloadsRepository,
    private readonly sessions: SessionsService,
    private readonly codes: EmailCodesService,
    private readonly mail: MailService,
  ) {}

  @Interval('purge-expired-auth-state', PURGE_INTERVAL_MS)
  async purge(): Promise<void> {
    const purged = await Promise.all([
      this.payloads.purgeExpired(),
      this.sessions.purgeExpired(),
      this.codes.purgeSpent(),
      this.mail.purgeOutbox(),
    ]);
    const total = purged.reduce((sum, count) => sum + count, 0);
    if (total > 0) this.logger.debug(`Purged ${total} expired rows of authentication state`);
  }
}
