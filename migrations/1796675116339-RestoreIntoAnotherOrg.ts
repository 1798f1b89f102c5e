import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restores into another org (docs/restore.md "Into another org"): a restore's `connection_id` is
 * the org written to; `source_connection_id` the connection whose backup it restores when that is
 * another one (null for a restore into the backup's own org, and once the source connection is
 * deleted), and `mapping` what carries the backup over (domains, hosts, group names, pairs).
 */
export class RestoreIntoAnotherOrg1796675116339 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE restores
        ADD COLUMN source_connection_id uuid REFERENCES connections (id) ON DELETE SET NULL,
        ADD COLUMN mapping jsonb;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE restores DROP COLUMN source_connection_id, DROP COLUMN mapping');
  }
}
