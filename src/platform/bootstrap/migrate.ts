import { applyMigrations } from '@app/platform/database/apply-migrations.js';
import { loadKeyRing } from '@app/platform/security/key-ring.provider.js';
import { loadConfig } from '@app/platform/config/app-config.js';
import { resolveDatabase } from './database-url.js';

/**
 * `npm run migration:run`: applies pending migrations and exits, for operators who migrate
 * before rolling out replicas (the service also migrates at boot).
 */
async function migrate(): Promise<void> {
  const config = loadConfig();
  const database = await resolveDatabase(config);
  try {
    const applied = await applyMigrations(database.url, loadKeyRing(config));
    process.stdout.write(
      `${applied.length ? applied.map((name) => `applied ${name}`).join('\n') : 'no pending migration'}\n`,
    );
  } finally {
    await database.stop();
  }
}

await migrate();
