import { DataSource } from 'typeorm';
import { migrations } from '@migrations/index.js';
import { loadKeyRing } from '@app/security/key-ring.provider.js';
import { loadConfig } from '@app/config/app-config.js';
import { resolveDatabase } from '@app/bootstrap/database-url.js';

/**
 * `npm run migration:run`: applies pending migrations and exits, for operators who migrate
 * before rolling out replicas (the service also migrates at boot).
 */
async function migrate(): Promise<void> {
  const config = loadConfig();
  const database = await resolveDatabase(config);
  const dataSource = new DataSource({
    type: 'postgres',
    url: database.url,
    migrations: migrations(loadKeyRing(config)),
    migrationsTransactionMode: 'each',
  });
  try {
    await dataSource.initialize();
    const applied = await dataSource.runMigrations();
    process.stdout.write(
      `${applied.length ? applied.map((m) => `applied ${m.name}`).join('\n') : 'no pending migration'}\n`,
    );
  } finally {
    await dataSource.destroy();
    await database.stop();
  }
}

await migrate();
