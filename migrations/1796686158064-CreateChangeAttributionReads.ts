import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether each backup could read the provider's audit log for who changed what (docs/diff.md
 * "Who changed it"), and why not: a diff over a backup that could not (a permission not granted:
 * Entra ID's AuditLog.Read.All, Okta's okta.logs.read) says `not_available` with that reason
 * instead of `no_record`. Kept with the connection: a backup deleted by retention leaves its row.
 */
export class CreateChangeAttributionReads1796686158064 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE change_attribution_reads (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        backup_id uuid UNIQUE REFERENCES backups (id) ON DELETE SET NULL,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
        backup_started_at timestamptz NOT NULL,
        unavailable text
      );
      CREATE INDEX change_attribution_reads_connection_at
        ON change_attribution_reads (connection_id, backup_started_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE change_attribution_reads');
  }
}
