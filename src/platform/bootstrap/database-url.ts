import type { AppConfig } from '@app/platform/config/app-config.js';
import { startEmbeddedPostgres } from '@app/platform/database/embedded-postgres.js';

/** The database to use and how to let go of it: DATABASE_URL, or the embedded cluster (DESIGN section 2). */
export async function resolveDatabase(config: AppConfig): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => {} };
  return startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
}
