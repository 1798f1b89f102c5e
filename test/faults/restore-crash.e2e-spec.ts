import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createConnection, runBackup } from '@test/support/backup-helpers.js';
import { startTestOrg, type TestOrg } from '@test/support/okta-org.js';
import {
  deleteUsers,
  loginCounts,
  RESTORE_SCOPES,
  runRestore,
  waitForRestore,
  type RestoreView,
} from '@test/support/restore-helpers.js';
import { startWorkerOf, type ServiceProcess } from '@test/support/service-process.js';
import { startTestApp, type TestApp, type TestClient } from '@test/support/test-app.js';

// A killed worker, its restart and two restores: minutes on a busy 2-core runner, not a speed target.
jest.setTimeout(240_000);

/** Shortened sweep settings of src/platform/config (defaults 15 s, 180 s, 60 s). */
const SWEEP_SETTINGS = {
  BACKUP_HEARTBEAT_SECONDS: '1',
  BACKUP_STALE_AFTER_SECONDS: '5',
  BACKUP_SWEEP_INTERVAL_SECONDS: '1',
};

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A crash mid-way leaves a restore marked failed with what was applied (docs/restore.md), as the
 * fault suite checks it (a worker killed in each phase): the worker is the real service (src/main.ts,
 * ROLE=worker) in its own OS process, killed while it re-creates users, while it takes the
 * pre-restore backup and while it plans; the API is an `api`-only replica in this process.
 * Running the restore again finishes the job without creating anyone twice.
 */
describe('a worker process killed in the middle of a restore', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  const workers: ServiceProcess[] = [];

  beforeAll(async () => {
    // Every answer 60 ms late, so that re-creating 120 users takes seconds, not milliseconds.
    org = await startTestOrg(
      { users: 150, groups: 8, apps: 2, seed: 31, faults: { latencyMs: 60 } },
      RESTORE_SCOPES,
    );
    ctx = await startTestApp({ ...org.env, ...SWEEP_SETTINGS, ROLE: 'api' });
    admin = await ctx.newClient({ role: 'admin' });
  });

  afterAll(async () => {
    for (const worker of workers) await worker.kill('SIGKILL');
    await ctx?.close();
    await org?.sim.close();
  });

  const startWorker = async (): Promise<ServiceProcess> => {
    const worker = await startWorkerOf(ctx, { ...org.env, ...SWEEP_SETTINGS });
    workers.push(worker);
    return worker;
  };

  const view = async (restoreId: string): Promise<RestoreView> =>
    (
      await ctx.http
        .get(`/api/restore/${restoreId}`)
        .query({ limit: 1000 })
        .set('Authorization', `Bearer ${admin.token}`)
    ).body as RestoreView;

  it('ends failed with what it applied, and a second run completes it without duplicates', async () => {
    const doomed = await startWorker();
    const connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const backup = await runBackup(ctx, admin.token, { connectionId });
    const deleted = await deleteUsers(org.sim, 120);
    const body = { backupId: backup.id, mode: 'selective', resourceTypes: ['user'] };

    const started = await ctx.http
      .post('/api/restore')
      .set('Authorization', `Bearer ${admin.token}`)
      .send(body);
    expect(started.status).toBe(202);
    let current = await view(started.body.restoreId);
    while (current.items_total < 10) {
      expect(current.restore.status).not.toMatch(/completed|partial|failed/);
      await pause(100);
      current = await view(started.body.restoreId);
    }
    await doomed.kill('SIGKILL');
    await startWorker();

    const failed = await waitForRestore(ctx, admin.token, started.body.restoreId, 180_000);
    expect(failed.restore).toMatchObject({ status: 'failed', completed_at: expect.any(String) });
    expect(String(failed.restore.error_message)).toMatch(/stopped responding.*listed in its items/);
    expect(failed.items_total).toBeGreaterThanOrEqual(10);
    expect(failed.items_total).toBeLessThan(deleted.length);
    const liveIds = new Set(org.sim.snapshot().user.map((user) => user.id));
    expect(failed.items.filter((item) => !liveIds.has(String(item.newId)))).toEqual([]);

    const again = await runRestore(ctx, admin.token, body);

    expect(again.restore.status).toBe('completed');
    expect(new Set(Object.values(loginCounts(org.sim, deleted)))).toEqual(new Set([1]));
    // Users the first run made are matched by login, never made again (those it made after its last
    // recorded item included).
    expect(again.restore.summary.user.create).toBeLessThanOrEqual(deleted.length - failed.items_total);
  });

  it('killed while it takes the pre-restore backup, then while it plans: failed each time with nothing written; a last run completes without duplicates', async () => {
    const connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const backup = await runBackup(ctx, admin.token, { connectionId });
    const deleted = await deleteUsers(org.sim, 20);
    expect(deleted).toHaveLength(20);
    const body = { backupId: backup.id, mode: 'selective', resourceTypes: ['user'] };

    for (const phase of ['Taking the pre-restore backup', 'Reading the live org']) {
      const doomed = workers.at(-1)!;
      const started = await ctx.http
        .post('/api/restore')
        .set('Authorization', `Bearer ${admin.token}`)
        .send(body);
      expect(started.status).toBe(202);
      let current = await view(started.body.restoreId);
      // The phase's message, or one it refines (`Taking the pre-restore backup: Queued`).
      while (!String(current.restore.progress_message).startsWith(phase)) {
        expect(current.restore.status).toMatch(/pending|running/);
        await pause(10);
        current = await view(started.body.restoreId);
      }
      await doomed.kill('SIGKILL');
      await startWorker();
      const failed = await waitForRestore(ctx, admin.token, started.body.restoreId, 180_000);
      expect([phase, failed.restore.status, failed.items_total]).toEqual([phase, 'failed', 0]);
      expect(String(failed.restore.error_message)).toMatch(/stopped responding/);
    }

    const last = await runRestore(ctx, admin.token, body);
    expect(last.restore.status).toBe('completed');
    expect(last.restore.summary.user.create).toBe(deleted.length);
    expect(new Set(Object.values(loginCounts(org.sim, deleted)))).toEqual(new Set([1]));
  });
});
