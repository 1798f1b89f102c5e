import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Undo since a clean backup (docs/restore.md "Undo since a clean backup"): a restore of mode
 * `undo` reverses the changes made since its backup, of one actor, in a window (`undo`: the
 * filter it was asked with, `{ actor?, since?, until? }`; its types and ids in `resource_types`
 * and `resource_ids`).
 */
export class AddRestoreUndo1796675556864 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE restores DROP CONSTRAINT restores_mode_check;
      ALTER TABLE restores ADD CONSTRAINT restores_mode_check CHECK (mode IN ('full', 'selective', 'undo'));
      ALTER TABLE restores ADD COLUMN undo jsonb;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE restores DROP COLUMN undo;
      DELETE FROM restores WHERE mode = 'undo';
      ALTER TABLE restores DROP CONSTRAINT restores_mode_check;
      ALTER TABLE restores ADD CONSTRAINT restores_mode_check CHECK (mode IN ('full', 'selective'));
    `);
  }
}
