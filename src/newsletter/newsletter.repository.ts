import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The newsletter's subscribers and the hashed tokens of their mails (docs/security.md). */
@Injectable()
export class NewsletterRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records the address (or finds it) and spends one mail of its budget: at most `mailsPerWindow`
   * per `windowSeconds`. A confirmed, still subscribed address spends nothing.
   * @returns the subscriber's id when a confirmation mail may go out, else null
   */
  async admit(email: string, mailsPerWindow: number, windowSeconds: number): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `INSERT INTO newsletter_subscribers AS s (email, mails_in_window) VALUES ($1, 1)
       ON CONFLICT (email) DO UPDATE SET
         window_started_at = CASE WHEN s.window_started_at <= now() - make_interval(secs => $3) THEN now() ELSE s.window_started_at END,
         mails_in_window = CASE WHEN s.window_started_at <= now() - make_interval(secs => $3) THEN 1 ELSE s.mails_in_window + 1 END,
         unsubscribed_at = NULL,
         confirmed_at = CASE WHEN s.unsubscribed_at IS NULL THEN s.confirmed_at END
       WHERE (s.confirmed_at IS NULL OR s.unsubscribed_at IS NOT NULL)
         AND (s.window_started_at <= now() - make_interval(secs => $3) OR s.mails_in_window < $2)
       RETURNING id`,
      [email, mailsPerWindow, windowSeconds],
    )) as Array<{ id: string }>;
    return rows[0]?.id ?? null;
  }

  /** Stores the hash of a new token of `purpose` for the subscriber. */
  async addToken(subscriberId: string, purpose: 'confirm' | 'unsubscribe', tokenHash: string): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO newsletter_tokens (token_hash, subscriber_id, purpose) VALUES ($1, $2, $3)',
      [tokenHash, subscriberId, purpose],
    );
  }

  /** Voids the subscriber's unused confirmation tokens (a new round starts: only its link works). */
  async voidConfirmTokens(subscriberId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE newsletter_tokens SET used_at = now()
       WHERE subscriber_id = $1 AND purpose = 'confirm' AND used_at IS NULL`,
      [subscriberId],
    );
  }

  /**
   * Uses an unused token of `purpose`: confirms the subscription or ends it. A confirm token
   * older than `confirmSeconds` no longer works; using an unsubscribe token also voids the
   * subscriber's unused confirm tokens. (`used_at` marks a token used or voided alike.)
   * @returns false when no usable token of that purpose has this hash (nothing changes)
   */
  async use(purpose: 'confirm' | 'unsubscribe', tokenHash: string, confirmSeconds: number): Promise<boolean> {
    const column = purpose === 'confirm' ? 'confirmed_at' : 'unsubscribed_at';
    const rows = (await this.dataSource.query(
      `WITH used AS (
         UPDATE newsletter_tokens SET used_at = now()
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL
           AND (purpose = 'unsubscribe' OR created_at > now() - make_interval(secs => $3))
         RETURNING subscriber_id
       ), voided AS (
         UPDATE newsletter_tokens SET used_at = now()
         WHERE $2 = 'unsubscribe' AND purpose = 'confirm' AND used_at IS NULL
           AND subscriber_id IN (SELECT subscriber_id FROM used)
       )
       UPDATE newsletter_subscribers SET ${column} = now() WHERE id IN (SELECT subscriber_id FROM used) RETURNING id`,
      [tokenHash, purpose, confirmSeconds],
    )) as [unknown[], number];
    return rows[1] > 0;
  }
}
