import { Inject, Injectable, Logger } from '@nestjs/common';
import { MailService } from '@app/platform/mail/mail.service.js';
import { normalizeEmail } from '@app/identity/teams/email-address.js';
import { codeMatches, EMAIL_CODE_RULES, generateCode, hashCode } from './email-code.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { MailUnavailableError } from './sign-in.errors.js';
import { SIGN_IN_KEYS, type SignInKeys } from './sign-in-keys.js';

/**
 * One-time sign-in codes by e-mail (docs/auth.md): six digits from the CSPRNG, valid 10 minutes,
 * single use, void after 5 wrong tries, stored only as an HMAC and compared in constant time;
 * at most 5 codes per address per hour. Every well-formed address is treated alike, member or
 * not, so neither the answer nor the work done tells whether an address has an account.
 */
@Injectable()
export class EmailCodesService {
  private readonly logger = new Logger(EmailCodesService.name);
  /** Compared against when no usable code exists, so a miss costs what a wrong code costs. */
  private readonly decoyHash: string;

  constructor(
    private readonly codes: EmailCodesRepository,
    private readonly mail: MailService,
    @Inject(SIGN_IN_KEYS) private readonly keys: SignInKeys,
  ) {
    this.decoyHash = hashCode(keys.emailCode, 'decoy', generateCode());
  }

  /**
   * Makes a new code for the address (voiding the previous one) and e-mails it, unless the
   * address was sent 5 codes this hour.
   * @returns 0 when sent; else the seconds until the address may be sent another code.
   * @throws MailUnavailableError (503) when the SMTP server fails.
   */
  async send(email: string): Promise<number> {
    const address = normalizeEmail(email);
    const code = generateCode();
    const wait = await this.codes.replaceWithinBudget(
      address,
      hashCode(this.keys.emailCode, address, code),
      EMAIL_CODE_RULES,
    );
    if (wait > 0) return wait;
    try {
      await this.mail.send({
        to: email.trim(),
        subject: 'Your idp-backup sign-in code',
        text:
          `Your sign-in code is ${code}\n\n` +
          `It is valid for ${EMAIL_CODE_RULES.ttlSeconds / 60} minutes and works once. ` +
          'If you did not try to sign in, ignore this e-mail.\n',
      });
    } catch (error) {
      this.logger.error(`Sending a sign-in code failed: ${(error as Error).message}`);
      throw new MailUnavailableError();
    }
    return 0;
  }

  /** True when `code` is the address's pending code, which is then used up; false otherwise (a try is counted). */
  verify(email: string, code: string): Promise<boolean> {
    const address = normalizeEmail(email);
    return this.codes.consume(
      address,
      (usable) => codeMatches(this.keys.emailCode, address, code, usable ?? this.decoyHash),
      EMAIL_CODE_RULES,
    );
  }

  /** Deletes rows whose code and send window are both over. @returns rows removed. */
  purgeSpent(): Promise<number> {
    return this.codes.deleteSpent(EMAIL_CODE_RULES.sendWindowSeconds);
  }
}
