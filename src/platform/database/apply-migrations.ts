import { DataSource } from 'typeorm';
import { migrations } from '@migrations/index.js';
import type { KeyRing } from '@libs/crypto/key-ring.js';

/**
 * Applies the pending migrations to the PostgreSQL database at `url`, each in its own
 * transaction, and returns the names of those applied (empty when none was pending).
 * Throws what TypeORM throws when the database is unreachable or a migration fails.
 */
export async function applyMigrations(url: string, keyRing: KeyRing): Promise<string[]> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    migrations: migrations(keyRing),
    migrationsTransactionMode: 'each',
  });
  try {
    await dataSource.initialize();
    const applied = await dataSource.runMigrations();
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
