import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drift since each connection's last backup (docs/scores.md): the drift job's last reading of
 * the provider's change log, one row per connection, read by GET /api/scores/readiness.
 */
export class CreateConnectionDrift1764500000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE connection_drift (
        connection_id uuid PRIMARY KEY REFERENCES connections (id) ON DELETE CASCADE,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        since timestamptz NOT NULL,
        changes integer NOT NULL,
        by_severity jsonb NOT NULL,
        checked_at timestamptz NOT NULL,
        error text
      );
      CREATE INDEX connection_drift_team ON connection_drift (team_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE connection_drift');
  }
}
