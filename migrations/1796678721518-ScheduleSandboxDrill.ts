import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A schedule's weekly verification may be a sandbox drill (docs/backups.md "Sandbox drills"):
 * `verify_sandbox_connection_id` names the connection it restores into (null: none, and once that
 * connection is deleted).
 */
export class ScheduleSandboxDrill1796678721518 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE schedules
        ADD COLUMN verify_sandbox_connection_id uuid REFERENCES connections (id) ON DELETE SET NULL;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE schedules DROP COLUMN verify_sandbox_connection_id');
  }
}
