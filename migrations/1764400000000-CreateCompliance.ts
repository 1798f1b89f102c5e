import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Compliance results (docs/compliance.md): one row per backup, framework and catalogue
 * version, so a second request is served from here; `compliance_runs` is the audit trail of
 * every check request (who asked, on which backup, computed or served from a stored result).
 */
export class CreateCompliance1764400000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE compliance_results (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        backup_id uuid NOT NULL REFERENCES backups (id) ON DELETE CASCADE,
        framework text NOT NULL,
        catalogue_version text NOT NULL,
        framework_version text NOT NULL,
        score integer NOT NULL CHECK (score BETWEEN 0 AND 100),
        findings jsonb NOT NULL,
        generated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT compliance_results_one UNIQUE (backup_id, framework, catalogue_version)
      );
      CREATE INDEX compliance_results_team ON compliance_results (team_id, generated_at DESC);

      CREATE TABLE compliance_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        result_id uuid REFERENCES compliance_results (id) ON DELETE SET NULL,
        connection_id uuid NOT NULL,
        backup_id uuid NOT NULL,
        framework text NOT NULL,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        client_id text,
        served_from text NOT NULL CHECK (served_from IN ('computed', 'stored')),
        score integer NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX compliance_runs_team ON compliance_runs (team_id, occurred_at DESC);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE compliance_runs');
    await db.query('DROP TABLE compliance_results');
  }
}
