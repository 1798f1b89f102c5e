import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Successful account exports (docs/account.md, spec "Limits": one per 7 days per team). A row is
 * written in the transaction that read the bundle, only once every section was read, so a
 * failed export leaves none and does not count.
 */
export class CreateAccountExports1765100000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE account_exports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        completed_at timestamptz NOT NULL DEFAULT now(),
        counts jsonb NOT NULL
      );
      CREATE INDEX account_exports_team_completed ON account_exports (team_id, completed_at DESC);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE account_exports');
  }
}
