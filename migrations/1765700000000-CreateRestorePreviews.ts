import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restore previews run as jobs (docs/decisions.md "The restore preview stays synchronous by
 * default"): a client that sends `Prefer: respond-async` (RFC 7240) for a backup larger than
 * RESTORE_PREVIEW_SYNC_MAX_RECORDS gets 202 and polls `/api/restore/previews/{id}`. One row per
 * preview, a tracked run queued `pending` and taken once; `result` holds the preview as the
 * synchronous answer would have, once `completed`.
 */
export class CreateRestorePreviews1765700000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE restore_previews (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        resource_types text[] NOT NULL,
        resource_ids text[],
        activate_users boolean NOT NULL,
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
      CREATE INDEX restore_previews_team_created ON restore_previews (team_id, created_at DESC);
      CREATE INDEX restore_previews_active_heartbeat ON restore_previews (heartbeat_at)
        WHERE status IN ('pending', 'running');
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE restore_previews');
  }
}
