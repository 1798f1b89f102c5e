import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres.js';

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set (CI's service), else an embedded
 * cluster in a temp dir. Each e2e file creates its own database on it (test/support/test-app.ts).
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.TEST_ADMIN_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const dir = join(tmpdir(), `idp-backup-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const database = await startEmbeddedPostgres(dir, 54400 + (process.pid % 500));
  process.env.TEST_ADMIN_DATABASE_URL = database.url;
  (globalThis as { __embeddedDatabase?: { stop(): Promise<void> } }).__embeddedDatabase = database;
}
