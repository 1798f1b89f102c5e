import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A restore's and a restore preview's provider switches (descriptor `restoreOptions`, Entra ID's
 * `enforce` the first) live in one `options` object, so a provider's new switch needs no column:
 * the `enforce` column's values move into it.
 */
export class RestoreOptions1766320000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    for (const table of ['restores', 'restore_previews']) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN options jsonb NOT NULL DEFAULT '{}'`);
      await db.query(`UPDATE ${table} SET options = jsonb_build_object('enforce', enforce)`);
      await db.query(`ALTER TABLE ${table} DROP COLUMN enforce`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['restores', 'restore_previews']) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN enforce boolean NOT NULL DEFAULT false`);
      await db.query(`UPDATE ${table} SET enforce = COALESCE((options->>'enforce')::boolean, false)`);
      await db.query(`ALTER TABLE ${table} DROP COLUMN options`);
    }
  }
}
