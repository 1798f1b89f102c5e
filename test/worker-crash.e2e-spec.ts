import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { join } from 'node:path';
import pg from 'pg';
import { FsObjectStore } from '@libs/object-store/fs-object-store.js';
import { MANIFEST_NAME } from '@libs/snapshot/snapshot-layout.js';
import { SnapshotNotFoundError } from '@libs/snapshot/snapshot-errors.js';
import { StaleRunSweeper } from '@app/platform/jobs/tracked-run/stale-run.sweeper.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, openSnapshot, waitForBackup } from './support/backup-helpers.js';
import { startWorkerOf, type ServiceProcess } from './support/service-process.js';

// A killed worker, its restart and two backups: minutes on a busy 2-core runner, not a speed target.
jest.setTimeout(240_000);

/** Shortened sweep settings of src/platform/config (defaults 15 s, 180 s, 60 s). */
const STALE_AFTER_SECONDS = 5;
const SWEEP_SETTINGS = {
  BACKUP_HEARTBEAT_SECONDS: '1',
  BACKUP_STALE_AFTER_SECONDS: String(STALE_AFTER_SECONDS),
  BACKUP_SWEEP_INTERVAL_SECONDS: '1',
};
const SWEEP_MESSAGE = 'The worker running this backup stopped responding; run it again';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * DESIGN section 4, docs/backups.md: the worker is the real service
 * (src/main.ts, ROLE=worker) in its own OS process, stopped dead while it writes a snapshot; a
 * second worker process on the same database and data directory takes over. The HTTP API is an
 * `api`-only replica in this process (it enqueues, never works or sweeps on its own).
 */
describe('a worker process that stops in the middle of a backup', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let db: pg.Client;
  const processes: ServiceProcess[] = [];
  const auth = (): Record<string, string> => ({ Authorization: `Bearer ${admin.token}` });

  beforeAll(async () => {
    // About 300 requests, each answered 20 ms late: a backup of several seconds, written part by part.
    org = await startTestOrg({ users: 600, groups: 60, apps: 12, seed: 8, faults: { latencyMs: 20 } });
    ctx = await startTestApp({ ...org.env, ...SWEEP_SETTINGS, ROLE: 'api' });
    admin = await ctx.newClient({ role: 'admin' });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    for (const child of processes) await child.kill('SIGKILL');
    await db?.end();
    await ctx?.close();
    await org?.sim.close();
  });

  async function startWorker(): Promise<ServiceProcess> {
    const child = await startWorkerOf(ctx, { ...org.env, ...SWEEP_SETTINGS });
    processes.push(child);
    return child;
  }

  /** Names of the objects under a backup's prefix, relative to it. */
  async function storedNames(prefix: string): Promise<string[]> {
    const names: string[] = [];
    for await (const entry of new FsObjectStore(join(ctx.dataDir, 'objects')).list(prefix))
      names.push(entry.key.slice(prefix.length));
    return names.sort();
  }

  /**
   * The objects under `prefix` once the sweep has deleted them: it deletes right after it marks
   * the backup failed (src/platform/jobs/tracked-run/stale-run.sweeper.ts), so they may outlive the status by a moment.
   * After 10 s, whatever is left.
   */
  async function storedNamesOnceDeleted(prefix: string): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    let names = await storedNames(prefix);
    while (names.length > 0 && Date.now() < deadline) {
      await pause(100);
      names = await storedNames(prefix);
    }
    return names;
  }

  async function getBackup(id: string): Promise<Record<string, unknown>> {
    const response = await ctx.http.get(`/api/backup/${id}`).set(auth());
    expect(response.status).toBe(200);
    return response.body.backup as Record<string, unknown>;
  }

  /** Starts a backup of `connectionId` and returns once 3 of its parts are stored, still running. */
  async function startBackupUntilWriting(connectionId: string): Promise<{ id: string; prefix: string }> {
    const run = await ctx.http.post('/api/backup/run').set(auth()).send({ connectionId });
    expect(run.status).toBe(202);
    const id = run.body.backupId as string;
    const prefix = (await getBackup(id)).storage_key as string;
    for (;;) {
      const progress = await getBackup(id);
      expect(progress.status).toBe('running');
      const parts = (await storedNames(prefix)).filter((name) => name.startsWith('parts/'));
      if (parts.length >= 3) {
        // Parts are written at once: the message counts the types, and names some still collecting.
        expect(String(progress.progress_message)).toMatch(
          /^Backing up (\d+ resource types \(every object\)|.*\(\d+ of \d+ resource types written\))$/,
        );
        return { id, prefix };
      }
      await pause(50);
    }
  }

  /** Waits until pg-boss no longer holds job `id` as active; returns its state. */
  async function jobSettled(id: unknown): Promise<string> {
    for (;;) {
      const { rows } = await db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id]);
      if (rows[0].state !== 'active' && rows[0].state !== 'retry') return rows[0].state;
      await pause(100);
    }
  }

  const newConnection = (): Promise<string> =>
    createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });

  it('killed: ends failed with a message, leaves no snapshot, ignores the job retry, frees the connection', async () => {
    const connectionId = await newConnection();
    const doomed = await startWorker();
    const { id, prefix } = await startBackupUntilWriting(connectionId);
    await doomed.kill('SIGKILL');
    expect(await storedNames(prefix)).not.toContain(MANIFEST_NAME);
    expect(await getBackup(id)).toMatchObject({ status: 'running' }); // nobody left to finish or fail it

    await startWorker();
    expect(await waitForBackup(ctx, admin.token, id, 60_000)).toMatchObject({
      status: 'failed',
      error_message: SWEEP_MESSAGE,
    });
    const failed = await getBackup(id);
    expect(failed.completed_at).toEqual(expect.any(String));
    // Not failed early: the sweep waited the whole stale window after the last heartbeat.
    const { rows } = await db.query<{ silent: number }>(
      'SELECT extract(epoch FROM completed_at - heartbeat_at)::float AS silent FROM backups WHERE id = $1',
      [id],
    );
    expect(rows[0].silent).toBeGreaterThanOrEqual(STALE_AFTER_SECONDS);
    expect(await storedNamesOnceDeleted(prefix)).toEqual([]);
    await expect(openSnapshot(ctx, prefix)).rejects.toBeInstanceOf(SnapshotNotFoundError);

    // pg-boss still holds the dead worker's job as active and retries it once it expires (2 h).
    // Expire it now as pg-boss's maintenance would, and let the surviving worker run the retry.
    const expired = await db.query(
      `UPDATE pgboss.job SET state = 'retry', retry_count = retry_count + 1, start_after = now()
        WHERE id = $1 AND state = 'active'`,
      [failed.instance_id],
    );
    expect(expired.rowCount).toBe(1);
    expect(await jobSettled(failed.instance_id)).toBe('completed');
    expect(await getBackup(id)).toEqual(failed);
    expect(await storedNames(prefix)).toEqual([]);

    // The connection is free again, and the surviving worker backs it up in full.
    const again = await ctx.http.post('/api/backup/run').set(auth()).send({ connectionId });
    expect(again.status).toBe(202);
    expect(await waitForBackup(ctx, admin.token, again.body.backupId, 60_000)).toMatchObject({
      status: 'completed',
    });
    const fresh = await getBackup(again.body.backupId);
    const inOrg = org.sim.snapshot();
    expect(fresh.resource_counts).toMatchObject({ user: inOrg.user.length, group: inOrg.group.length });
    const reader = await openSnapshot(ctx, fresh.storage_key as string);
    await expect(reader.verify()).resolves.toBeUndefined();
  });

  it('stopped with SIGTERM while writing: finishes the backup, then exits 0', async () => {
    for (const child of processes.splice(0)) await child.kill('SIGTERM'); // the stopping one must get the job
    const connectionId = await newConnection();
    const stopping = await startWorker();
    const { id } = await startBackupUntilWriting(connectionId);

    // pg-boss gives running jobs 10 s (src/platform/jobs/jobs.service.ts); this backup needs a few more seconds.
    const exit = await stopping.kill('SIGTERM');

    expect(exit).toEqual({ code: 0, signal: null });
    const backup = await getBackup(id);
    expect(backup).toMatchObject({ status: 'completed', error_message: null });
    const reader = await openSnapshot(ctx, backup.storage_key as string);
    await expect(reader.verify()).resolves.toBeUndefined();
  });

  it('stalled past the stale window, then resumed: stores nothing more for the failed backup', async () => {
    for (const child of processes.splice(0)) await child.kill('SIGTERM'); // the stalled one must get the job
    const connectionId = await newConnection();
    const stalled = await startWorker();
    const { id, prefix } = await startBackupUntilWriting(connectionId);
    process.kill(stalled.pid, 'SIGSTOP');

    const sweeper = ctx.app.get(StaleRunSweeper);
    expect(await sweeper.sweep(new Date(Date.now() + (STALE_AFTER_SECONDS + 1) * 1000))).toEqual([id]);
    expect(await storedNames(prefix)).toEqual([]);

    process.kill(stalled.pid, 'SIGCONT');
    const failed = await getBackup(id);
    await jobSettled(failed.instance_id);
    expect(await getBackup(id)).toMatchObject({ status: 'failed', error_message: SWEEP_MESSAGE });
    expect(await storedNames(prefix)).toEqual([]);
  });

  it('stopped twice, SIGTERM then SIGINT: the second signal ends it at once', async () => {
    for (const child of processes.splice(0)) await child.kill('SIGTERM');
    const connectionId = await newConnection();
    const stopping = await startWorker();
    await startBackupUntilWriting(connectionId);
    process.kill(stopping.pid, 'SIGTERM');
    while (!stopping.output().includes('SIGTERM: stopping')) await pause(10);

    // Without its listener, Node ends the process on the signal; the backup is left to the sweep.
    expect(await stopping.kill('SIGINT')).toEqual({ code: null, signal: 'SIGINT' });
  });
});
