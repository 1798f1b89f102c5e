import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sandbox drills (docs/backups.md "Verification drills", docs/restore.md "Into another org"): a drill
 * that also restores the backup into another connection's org (`target_connection_id`, null once that
 * connection is deleted), carried over by `mapping`, and stores what it found (`sandbox`).
 */
export class SandboxDrills1796676877299 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE restore_drills
        ADD COLUMN target_connection_id uuid REFERENCES connections (id) ON DELETE SET NULL,
        ADD COLUMN mapping jsonb,
        ADD COLUMN sandbox jsonb;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'ALTER TABLE restore_drills DROP COLUMN target_connection_id, DROP COLUMN mapping, DROP COLUMN sandbox',
    );
  }
}
