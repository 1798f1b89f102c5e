import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { BackupRetentionJob } from '@app/backups/backup-retention.job.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** An `api` replica enqueues without working jobs, so the queue keeps what was enqueued. */
describe('the hourly retention run', () => {
  let ctx: TestApp;

  beforeAll(async () => {
    ctx = await startTestApp({ ROLE: 'api' });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('is enqueued once per hour however many replicas tick', async () => {
    const sut = ctx.app.get(BackupRetentionJob);
    const first = await sut.enqueue(new Date('2026-11-22T05:17:00Z'));
    expect(first).toEqual(expect.any(String));
    expect(await sut.enqueue(new Date('2026-11-22T05:17:02Z'))).toBeNull();
    expect(await sut.enqueue(new Date('2026-11-22T05:59:59Z'))).toBeNull();
    const next = await sut.enqueue(new Date('2026-11-22T06:17:00Z'));
    expect(next).toEqual(expect.any(String));
    expect(next).not.toBe(first);
  });
});

/**
 * A connection's own retention (docs/backups.md "Retention"): `retention_days` and
 * `retention_count` on its schedule, bounded by the team plan (the team plan: 90 and 90), and
 * the retention run deleting a backup only when it is older than the days and not among the
 * newest `retention_count` completed ones, never the newest completed one.
 */
describe('per-connection retention (HTTP, real PostgreSQL, filesystem store, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let db: pg.Client;
  let admin: TestClient;
  let connectionId: string;

  const bearer = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });
  const schedulePath = () => `/api/connections/${connectionId}/schedule`;
  const patch = (body: Record<string, unknown>, client = admin) =>
    ctx.http.patch(schedulePath()).set(bearer(client)).send(body);
  /** Moves a backup's start `days` days into the past, as if it had run then. */
  const age = (backup: BackupDto, days: number) =>
    db.query(`UPDATE backups SET started_at = now() - make_interval(days => $2) WHERE id = $1`, [
      backup.id,
      days,
    ]);
  const stored = (backup: BackupDto) => existsSync(join(ctx.dataDir, 'objects', backup.storage_key));
  const listed = async (): Promise<string[]> => {
    const list = await ctx.http.get('/api/backup/list').query({ connectionId }).set(bearer(admin));
    expect(list.status).toBe(200);
    return (list.body.backups as BackupDto[]).map((backup) => backup.id).sort();
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 4, groups: 2, apps: 1, seed: 41 });
    ctx = await startTestApp({ ...org.env, DEFAULT_PLAN: 'team' });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
  });

  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await org?.sim.close();
  });

  it("reads null (the plan's default) until set, then reads back what was set, and null again", async () => {
    const initial = await ctx.http.get(schedulePath()).set(bearer(admin));
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ retention_days: null, retention_count: null });

    const set = await patch({ retention_days: 30, retention_count: 2 });
    expect(set.status).toBe(200);
    expect(set.body.schedule).toMatchObject({ retention_days: 30, retention_count: 2, enabled: false });
    const read = await ctx.http.get(schedulePath()).set(bearer(admin));
    expect(read.body).toMatchObject({ retention_days: 30, retention_count: 2 });

    // Another field alone leaves them as they are; null puts one back to the plan's default.
    expect((await patch({ hour: 4 })).body.schedule).toMatchObject({
      retention_days: 30,
      retention_count: 2,
    });
    const reset = await patch({ retention_count: null });
    expect(reset.body.schedule).toMatchObject({ retention_days: 30, retention_count: null });
    expect((await patch({ retention_count: 2 })).body.schedule.retention_count).toBe(2);
  });

  it("refuses a value above the plan's with 402 plan_limit_exceeded, and malformed values with 400", async () => {
    for (const [field, limit] of [
      ['retention_days', 'retention_days'],
      ['retention_count', 'retention_count'],
    ]) {
      const over = await patch({ [field]: 91 });
      expect(over.status).toBe(402);
      expect(over.body).toMatchObject({
        error: expect.any(String),
        code: 'plan_limit_exceeded',
        limit,
        plan: 'team',
      });
      expect((await patch({ [field]: 90 })).status).toBe(200);
      for (const bad of [0, -1, 2.5, '30', true]) {
        const refused = await patch({ [field]: bad });
        expect([field, bad, refused.status, refused.body.code]).toEqual([
          field,
          bad,
          400,
          'validation_failed',
        ]);
      }
    }
    // Nothing refused was saved.
    const read = await ctx.http.get(schedulePath()).set(bearer(admin));
    expect(read.body).toMatchObject({ retention_days: 90, retention_count: 90 });
    expect((await patch({ retention_days: 30, retention_count: 2 })).status).toBe(200);
  });

  it("answers 404 for another team's connection, and changes nothing there", async () => {
    const stranger = await ctx.newClient({ role: 'admin' });
    expect((await ctx.http.get(schedulePath()).set(bearer(stranger))).status).toBe(404);
    const refused = await patch({ retention_days: 1 }, stranger);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: expect.any(String) });
    expect((await ctx.http.get(schedulePath()).set(bearer(admin))).body).toMatchObject({
      retention_days: 30,
      retention_count: 2,
    });
  });

  it('deletes exactly the backups older than the days and beyond the newest count, records and objects', async () => {
    // Full backups, so that each has its own objects.
    expect((await patch({ incremental_enabled: false })).status).toBe(200);
    const backups: BackupDto[] = [];
    for (let i = 0; i < 4; i += 1) {
      const backup = await runBackup(ctx, admin.token, { connectionId });
      expect(backup.status).toBe('completed');
      backups.push(backup);
    }
    const [oldest, older, old, newest] = backups;
    await age(oldest, 60);
    await age(older, 50);
    await age(old, 40);
    for (const backup of backups) expect(stored(backup)).toBe(true);
    const job = ctx.app.get(BackupRetentionJob);

    // 30 days and 2 backups: the two oldest are past both; `old` is past 30 days but the second newest.
    await job.handle();
    expect(await listed()).toEqual([old.id, newest.id].sort());
    expect([stored(oldest), stored(older), stored(old), stored(newest)]).toEqual([false, false, true, true]);

    // Back to the plan's count (the newest one only): `old` goes, the newest stays.
    expect((await patch({ retention_count: null })).status).toBe(200);
    await job.handle();
    expect(await listed()).toEqual([newest.id]);
    expect([stored(old), stored(newest)]).toEqual([false, true]);

    // The newest completed backup of a live connection stays whatever its age.
    await age(newest, 400);
    await job.handle();
    expect(await listed()).toEqual([newest.id]);
    expect(stored(newest)).toBe(true);

    // The plan of the moment caps the setting: 30 days set, then the free plan's 7.
    const fresh = await runBackup(ctx, admin.token, { connectionId });
    expect(fresh.status).toBe('completed');
    await age(newest, 10);
    await job.handle();
    expect(await listed()).toEqual([newest.id, fresh.id].sort());
    expect(await ctx.app.get(PlanLimitsService).setPlan(admin.teamId, 'free')).toBe(true);
    await job.handle();
    expect(await listed()).toEqual([fresh.id]);
    expect([stored(newest), stored(fresh)]).toEqual([false, true]);

    // A deleted connection keeps no newest backup: its backups expire like the others.
    expect((await ctx.http.delete(`/api/connections/${connectionId}`).set(bearer(admin))).status).toBe(200);
    await age(fresh, 8);
    await job.handle();
    expect((await ctx.http.get(`/api/backup/${fresh.id}`).set(bearer(admin))).status).toBe(404);
    expect(stored(fresh)).toBe(false);
  }, 180_000);
});
