import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Compliance checks run as jobs (docs/decisions.md "A compliance check stays in the request by
 * default"): a client that sends `Prefer: respond-async` (RFC 7240) for a backup larger than
 * COMPLIANCE_CHECK_SYNC_MAX_RECORDS, with no stored result, gets 202 and polls
 * `/api/compliance/checks/{id}`. One row per check, a tracked run queued `pending` and taken
 * once; `result_id` names the stored result (`compliance_results`) once `completed`.
 */
export class CreateComplianceChecks1766300000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE compliance_checks (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        framework text NOT NULL,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        client_id text,
        result_id uuid REFERENCES compliance_results (id) ON DELETE SET NULL,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        progress_pct real NOT NULL DEFAULT 0,
        progress_message text NOT NULL DEFAULT '',
        error_message text,
        job_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX compliance_checks_team_created ON compliance_checks (team_id, created_at DESC);
      CREATE INDEX compliance_checks_active_heartbeat ON compliance_checks (heartbeat_at)
        WHERE status IN ('pending', 'running');
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE compliance_checks');
  }
}
