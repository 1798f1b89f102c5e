import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { OutboxEmailEntity } from './outbox-email.entity.js';
import { OutboxRepository } from './outbox.repository.js';

/** One e-mail: plain text, with an HTML alternative and extra headers when given. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML (multipart/alternative); the outbox keeps only the text. */
  html?: string;
  /** e.g. `List-Unsubscribe` (RFC 2369) for mail a recipient may turn off */
  headers?: Record<string, string>;
}

/** An e-mail kept in the outbox (no SMTP_URL). */
export type OutboxEmail = Pick<OutboxEmailEntity, 'id' | 'recipient' | 'subject' | 'body' | 'createdAt'>;

/** How long outbox rows are kept, seconds: they are for reading a code right away, not an archive. */
const OUTBOX_RETENTION_SECONDS = 24 * 3600;

/**
 * The service's transactional e-mail (spec "Events": sign-in codes first). With `SMTP_URL` it
 * goes out through nodemailer; without it (on-prem evaluation, DESIGN section 2) it is written to
 * the `outbox_emails` table, which an operator reads with `npm run -s cli -- outbox:list`. Its
 * content is never logged either way: a sign-in code in a log lets anyone who reads the log sign
 * in as the addressee. nodemailer is loaded at the first e-mail, not at boot.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger(MailService.name);
  private transport?: Promise<Transporter>;
  private readonly smtpUrl?: string;
  private readonly from: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly outbox: OutboxRepository,
  ) {
    this.from = config.MAIL_FROM ?? `idp-backup <no-reply@${new URL(config.BASE_URL).hostname}>`;
    this.smtpUrl = config.SMTP_URL;
  }

  /** @throws Error when the SMTP server refuses or cannot be reached (nothing is written to the outbox then). */
  async send(message: MailMessage): Promise<void> {
    if (this.smtpUrl) {
      const url = this.smtpUrl;
      this.transport ??= import('nodemailer').then(({ createTransport }) => createTransport(url));
      await (await this.transport).sendMail({ from: this.from, ...message });
      return;
    }
    await this.outbox.insert({ recipient: message.to, subject: message.subject, body: message.text });
    this.logger.log(
      `E-mail "${message.subject}" to ${message.to} kept in the outbox (no SMTP_URL): npm run -s cli -- outbox:list --to ${message.to}`,
    );
  }

  /** The newest `limit` e-mails kept in the outbox, to `recipient` (any case) when given. */
  listOutbox(recipient: string | undefined, limit: number): Promise<OutboxEmail[]> {
    return this.outbox.list(recipient, limit);
  }

  /** Deletes outbox rows older than a day. @returns rows removed. */
  purgeOutbox(): Promise<number> {
    return this.outbox.deleteOlderThan(OUTBOX_RETENTION_SECONDS);
  }

  async onApplicationShutdown(): Promise<void> {
    (await this.transport)?.close();
  }
}
