import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public newsletter (docs/security.md, spec "Newsletter"): one row per address, double opt-in
 * (`confirmed_at`), and the tokens its mails carry, stored as SHA-256 hashes only. Each mail gets
 * its own tokens, so an old mail's link keeps working; a used token is kept (`used_at`) so using
 * it again changes nothing. `window_started_at` and `mails_in_window` are the address's budget of
 * confirmation mails.
 */
export class CreateNewsletter1765400000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE newsletter_subscribers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL UNIQUE CHECK (email = lower(btrim(email)) AND email <> ''),
        created_at timestamptz NOT NULL DEFAULT now(),
        confirmed_at timestamptz,
        unsubscribed_at timestamptz,
        window_started_at timestamptz NOT NULL DEFAULT now(),
        mails_in_window smallint NOT NULL DEFAULT 0
      );
      CREATE TABLE newsletter_tokens (
        token_hash text PRIMARY KEY,
        subscriber_id uuid NOT NULL REFERENCES newsletter_subscribers (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe')),
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at timestamptz
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE newsletter_tokens; DROP TABLE newsletter_subscribers');
  }
}
