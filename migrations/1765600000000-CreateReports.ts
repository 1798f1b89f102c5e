import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored PDF reports (docs/export.md): one row per object under
 * `teams/<team>/reports/`, inserted before the object is written and with its expiry (that of its
 * signed URL, REPORT_URL_TTL), so the `report-expiry` job finds what to remove without listing
 * the object store, and a crash between the two writes leaves a row the job cleans up, never an
 * object nobody knows of.
 */
export class CreateReports1765600000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE reports (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('backup', 'compliance', 'activity')),
        object_key text NOT NULL,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX reports_expires ON reports (expires_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE reports');
  }
}
