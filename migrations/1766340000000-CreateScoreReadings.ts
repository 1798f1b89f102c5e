import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Past resilience and readiness (docs/scores.md "History"): one row per reading of a connection's two
 * scores, taken once a day by the `score-history` job (`cause` daily, at most one per connection and UTC
 * day) and after each completed backup (`cause` backup). The daily job deletes readings older than the
 * plan's retention (400 days at most), read by GET /api/scores/history.
 */
export class CreateScoreReadings1766340000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE score_readings (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        at timestamptz NOT NULL,
        day date NOT NULL,
        cause text NOT NULL CHECK (cause IN ('daily', 'backup')),
        resilience smallint NOT NULL CHECK (resilience BETWEEN 0 AND 100),
        readiness smallint NOT NULL CHECK (readiness BETWEEN 0 AND 100)
      );
      CREATE UNIQUE INDEX score_readings_daily ON score_readings (connection_id, day) WHERE cause = 'daily';
      CREATE INDEX score_readings_connection_at ON score_readings (connection_id, at);
      CREATE INDEX score_readings_team_at ON score_readings (team_id, at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE score_readings');
  }
}
