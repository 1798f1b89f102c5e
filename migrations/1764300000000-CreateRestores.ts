import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restores (DESIGN sections 4 and 6, docs/restore.md): one row per restore, `pending` ->
 * `running` -> `completed` | `partial` | `failed`, at most one pending or running per connection
 * (`restores_one_active`, so two replicas cannot race). `summary` holds the counts per type and
 * action; `restore_items` one row per write (created, updated or deleted resource) with its
 * outcome, in the order applied. Skipped resources are counted, not listed.
 */
export class CreateRestores1764300000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE restores (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        pre_restore_backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        mode text NOT NULL CHECK (mode IN ('full', 'selective')),
        resource_types text[],
        resource_ids text[],
        prune boolean NOT NULL,
        activate_users boolean NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'partial', 'failed')),
        progress_pct real NOT NULL DEFAULT 0,
        progress_message text NOT NULL DEFAULT '',
        error_message text,
        summary jsonb NOT NULL DEFAULT '{}',
        job_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX restores_one_active ON restores (connection_id) WHERE status IN ('pending', 'running');
      CREATE INDEX restores_team_created ON restores (team_id, created_at DESC);
      CREATE INDEX restores_active_heartbeat ON restores (heartbeat_at) WHERE status IN ('pending', 'running');

      CREATE TABLE restore_items (
        restore_id uuid NOT NULL REFERENCES restores (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        resource_type text NOT NULL,
        resource_id text NOT NULL,
        name text,
        action text NOT NULL CHECK (action IN ('create', 'update', 'delete', 'skip')),
        outcome text NOT NULL CHECK (outcome IN ('ok', 'failed')),
        error text,
        new_id text,
        notes text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (restore_id, seq)
      );
      CREATE INDEX restore_items_failed ON restore_items (restore_id, seq) WHERE outcome = 'failed';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE restore_items');
    await db.query('DROP TABLE restores');
  }
}
