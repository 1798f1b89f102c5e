import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in (docs/auth.md): signed-in sessions, one-time e-mail codes, the secret the
 * sign-in HMAC keys derive from, and the e-mail outbox. Nothing here is usable if the table is
 * read: session ids are stored as SHA-256, codes as HMAC, the secret encrypted under the master key.
 */
export class CreateSignIn1764100000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE sessions (
        id_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        method text NOT NULL CHECK (method IN ('email_code', 'oidc')),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_expires ON sessions (expires_at);
      CREATE INDEX sessions_last_seen ON sessions (last_seen_at);

      CREATE TABLE sign_in_codes (
        email text PRIMARY KEY,
        code_hash text,
        expires_at timestamptz,
        failed_attempts smallint NOT NULL DEFAULT 0,
        window_started_at timestamptz NOT NULL DEFAULT now(),
        sends_in_window smallint NOT NULL DEFAULT 0
      );
      CREATE INDEX sign_in_codes_window ON sign_in_codes (window_started_at);

      CREATE TABLE sign_in_secrets (
        name text PRIMARY KEY,
        secret_enc text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE outbox_emails (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        recipient text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX outbox_emails_created ON outbox_emails (created_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'DROP TABLE outbox_emails; DROP TABLE sign_in_secrets; DROP TABLE sign_in_codes; DROP TABLE sessions;',
    );
  }
}
