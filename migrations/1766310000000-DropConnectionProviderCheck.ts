import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connection's kind is checked against the provider registry (`libs/providers/registry.ts`) when
 * it is created, so a new provider is its folder and one registry line (docs/architecture.md,
 * "Adding a provider"): the column no longer keeps a second list of kinds.
 */
export class DropConnectionProviderCheck1766310000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE connections DROP CONSTRAINT IF EXISTS connections_provider_check');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      "ALTER TABLE connections ADD CONSTRAINT connections_provider_check CHECK (provider IN ('okta', 'okta_workflows', 'entra_id'))",
    );
  }
}
