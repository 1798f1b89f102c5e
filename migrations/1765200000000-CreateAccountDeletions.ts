import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account deletion (docs/account.md, spec "Account data rights", "Limits"). `account_deletions` holds a
 * team's pending request during its 30-day grace period (gone with the team, or when cancelled).
 * `deleted_accounts` is what remains of a deleted team: its id, when, and counts (rows per table,
 * objects and bytes removed), nothing else, so no foreign key; `completed_at` is null while the
 * deletion job is still at work, which is how a crashed run is found and resumed.
 */
export class CreateAccountDeletions1765200000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE account_deletions (
        team_id uuid PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        requested_at timestamptz NOT NULL DEFAULT now(),
        scheduled_for timestamptz NOT NULL
      );
      CREATE INDEX account_deletions_due ON account_deletions (scheduled_for);

      CREATE TABLE deleted_accounts (
        team_id uuid PRIMARY KEY,
        deleted_at timestamptz NOT NULL DEFAULT now(),
        counts jsonb NOT NULL DEFAULT '{}',
        objects_removed bigint NOT NULL DEFAULT 0,
        bytes_removed bigint NOT NULL DEFAULT 0,
        completed_at timestamptz
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE deleted_accounts; DROP TABLE account_deletions');
  }
}
