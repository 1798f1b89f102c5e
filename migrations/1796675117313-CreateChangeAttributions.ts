import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who changed what (docs/diff.md "Who changed it"): each backup keeps, from the provider's audit
 * log, who changed each object since the previous backup, one row per event and object, so that
 * attribution outlives the log's retention (Okta keeps 90 days). Kept with the connection (a
 * backup deleted by retention leaves its rows: the changes it attributed stay attributed).
 */
export class CreateChangeAttributions1796675117313 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE change_attributions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        event_id text NOT NULL,
        target_id text NOT NULL,
        target_type text,
        resource_type text,
        event_type text NOT NULL,
        changed_at timestamptz NOT NULL,
        actor_id text NOT NULL,
        actor_display_name text NOT NULL,
        actor_type text NOT NULL CHECK (actor_type IN ('user', 'app', 'system')),
        actor_alternate_id text,
        actor_ip text,
        actor_user_agent text,
        by_this_service boolean NOT NULL
      );
      CREATE UNIQUE INDEX change_attributions_event ON change_attributions (connection_id, event_id, target_id);
      CREATE INDEX change_attributions_connection_at ON change_attributions (connection_id, changed_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE change_attributions');
  }
}
