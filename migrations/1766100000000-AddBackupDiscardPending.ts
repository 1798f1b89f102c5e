import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marks a backup whose objects could not be deleted when it failed (the object store was down
 * too), so that the hourly retention run deletes them once the store is back (docs/operations.md "When a
 * dependency fails": a failed backup leaves no objects). A partial index: only such backups are ever looked
 * up by it.
 */
export class AddBackupDiscardPending1766100000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE backups ADD COLUMN discard_pending boolean NOT NULL DEFAULT false');
    await db.query('CREATE INDEX backups_discard_pending ON backups (started_at) WHERE discard_pending');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX backups_discard_pending');
    await db.query('ALTER TABLE backups DROP COLUMN discard_pending');
  }
}
