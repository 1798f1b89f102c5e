import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restore drills (docs/backups.md "Verification drills"): one row per verification of a
 * stored snapshot read end to end (every frame decrypted, every digest checked, every record
 * parsed), `pending` -> `running` -> `completed` (the snapshot passed) | `failed` (it did not, or
 * could not be read). `result` holds what was read: parts, records, stored bytes. A drill
 * outlives its backup (`backup_id` set null on deletion) so the audit pack keeps its history.
 */
export class CreateRestoreDrills1765500000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE restore_drills (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        backup_sha256 text,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        triggered_by text NOT NULL CHECK (triggered_by IN ('manual', 'schedule')),
        status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        progress_pct real NOT NULL DEFAULT 0,
        progress_message text NOT NULL DEFAULT '',
        error_message text,
        result jsonb,
        job_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX restore_drills_team_created ON restore_drills (team_id, created_at, id);
      CREATE INDEX restore_drills_active_heartbeat ON restore_drills (heartbeat_at) WHERE status IN ('pending', 'running');
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE restore_drills');
  }
}
