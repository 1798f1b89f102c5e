import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A restore of a provider that cannot be written through an API (Okta Workflows, docs/okta-workflows.md) ends
 * with a re-import package in the object store: where it is. Null for every other restore.
 */
export class AddRestorePackage1765900300000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE restores ADD COLUMN package_key text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE restores DROP COLUMN package_key');
  }
}
