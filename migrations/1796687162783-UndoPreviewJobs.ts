import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An undo's dry run queued as a job (docs/restore.md "Undo since a clean backup": `Prefer:
 * respond-async`): the preview run keeps the undo's query (`undo`, null for a restore's dry run)
 * and, once completed, the undo's preview (`undo_result`).
 */
export class UndoPreviewJobs1796687162783 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE restore_previews ADD COLUMN undo jsonb, ADD COLUMN undo_result jsonb');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE restore_previews DROP COLUMN undo, DROP COLUMN undo_result');
  }
}
