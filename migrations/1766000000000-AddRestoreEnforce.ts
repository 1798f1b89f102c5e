import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether an Entra ID restore (and its preview) enables conditional access policies even when they
 * would block every Global Administrator (docs/restore.md "Microsoft Entra ID"); false keeps them
 * report-only.
 */
export class AddRestoreEnforce1766000000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE restores ADD COLUMN enforce boolean NOT NULL DEFAULT false');
    await db.query('ALTER TABLE restore_previews ADD COLUMN enforce boolean NOT NULL DEFAULT false');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE restore_previews DROP COLUMN enforce');
    await db.query('ALTER TABLE restores DROP COLUMN enforce');
  }
}
