import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { WeeklyVerificationJob } from '@app/drills/weekly-verification.job.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** Every file under `dir`, recursively, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

/**
 * docs/backups.md "Verification drills": POST /api/backup/<id>/verify reads a stored snapshot end to end as a
 * drill.
 */
describe('restore drills: POST /api/backup/:id/verify (HTTP, real PostgreSQL, object store)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let operator: TestClient;
  let viewer: TestClient;
  let backup: BackupDto;
  let connectionId: string;
  let snapshotDir: string;

  const bearer = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });
  const verify = (backupId: string, client = operator) =>
    ctx.http.post(`/api/backup/${backupId}/verify`).set(bearer(client));
  /** Starts a drill and polls it until it is over; returns the drill. */
  const drill = async (backupId: string): Promise<Record<string, unknown>> => {
    const started = await verify(backupId);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      status: 'started',
      poll: `/api/restore-drills/${started.body.drillId}`,
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const polled = await ctx.http.get(started.body.poll).set(bearer(viewer));
      expect(polled.status).toBe(200);
      const found = polled.body.drill as Record<string, unknown>;
      if (found.status === 'completed' || found.status === 'failed') return found;
      if (Date.now() > deadline) throw new Error(`drill ${started.body.drillId} still ${found.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 40, groups: 5, apps: 3, seed: 2828 });
    ctx = await startTestApp(org.env);
    const admin = await ctx.newClient({ role: 'admin' });
    operator = await ctx.newClient({ role: 'operator', teamId: admin.teamId });
    viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    snapshotDir = join(ctx.dataDir, 'objects', backup.storage_key);
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('passes an untouched snapshot, with what it read, and audits the drill', async () => {
    const passed = await drill(backup.id);
    expect(passed).toMatchObject({
      kind: 'verification',
      status: 'completed',
      outcome: 'passed',
      backup_id: backup.id,
      backup_sha256: backup.sha256,
      triggered_by: 'manual',
      error_message: null,
    });
    const records = Object.values(backup.resource_counts).reduce((sum, count) => sum + count, 0);
    expect(passed.result).toMatchObject({ parts: backup.resource_types.length, records });
    const admin = await ctx.newClient({ role: 'admin', teamId: operator.teamId });
    const trail = await ctx.http.get('/api/audit-events').query({ targetId: passed.id }).set(bearer(admin));
    const actions = (trail.body.events as Array<{ action: string }>).map((event) => event.action).sort();
    expect(actions).toEqual(['drill.passed', 'drill.started']);
  });

  it('fails the drill when one byte of any stored object of the snapshot is flipped, and passes once it is put back', async () => {
    const files = filesUnder(snapshotDir);
    // The manifest, every part, and the first index shard of each type.
    const shards = new Set<string>();
    const targets = files.filter((file) => {
      if (!file.startsWith('index/')) return true;
      const type = file.split('/')[1];
      if (shards.has(type)) return false;
      shards.add(type);
      return true;
    });
    expect(targets).toContain('manifest.json');
    expect(targets.some((file) => file.startsWith('parts/'))).toBe(true);
    expect(targets.some((file) => file.startsWith('index/'))).toBe(true);
    const outcomes: string[] = [];
    for (const file of targets) {
      const path = join(snapshotDir, file);
      const original = readFileSync(path);
      if (original.length === 0) continue;
      const tampered = Buffer.from(original);
      const at = Math.floor(Math.random() * tampered.length);
      tampered[at] ^= 0x01;
      writeFileSync(path, tampered);
      try {
        const result = await drill(backup.id);
        outcomes.push(
          `${relative(snapshotDir, path)}@${at}: ${String(result.outcome)} ${String(result.status)}`,
        );
        expect(result.error_message).toMatch(/\S/);
      } finally {
        writeFileSync(path, original);
      }
    }
    expect(outcomes.filter((line) => !line.endsWith(': failed failed'))).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(2);
    expect(await drill(backup.id)).toMatchObject({ outcome: 'passed' });
  }, 300_000); // one drill per stored object of the snapshot, one after another

  it('reports a tampered part as a failed verification naming the integrity problem', async () => {
    const part = filesUnder(snapshotDir).find((file) => file === 'parts/user.ndjson.gz.enc')!;
    const path = join(snapshotDir, part);
    const original = readFileSync(path);
    const tampered = Buffer.from(original);
    tampered[Math.floor(tampered.length / 2)] ^= 0x80;
    writeFileSync(path, tampered);
    try {
      const failed = await drill(backup.id);
      expect(failed).toMatchObject({ status: 'failed', outcome: 'failed', result: null });
      expect(failed.error_message).toMatch(/^The snapshot failed verification: /);
    } finally {
      writeFileSync(path, original);
    }
  });

  it('answers 404 for another team’s backup or drill, 403 without `run backups`, 400 for a bad id', async () => {
    const stranger = await ctx.newClient({ role: 'admin' });
    expect((await verify(backup.id, stranger)).status).toBe(404);
    const mine = await verify(backup.id);
    const otherTeamsDrill = await ctx.http
      .get(`/api/restore-drills/${mine.body.drillId}`)
      .set(bearer(stranger));
    expect(otherTeamsDrill.status).toBe(404);
    const denied = await verify(backup.id, viewer);
    expect([denied.status, denied.body.code]).toEqual([403, 'forbidden']);
    expect((await verify('not-a-uuid')).status).toBe(400);
  });

  it('runs a weekly drill of the latest backup for a schedule that asks for one, once a week', async () => {
    const admin = await ctx.newClient({ role: 'admin', teamId: operator.teamId });
    const patched = await ctx.http
      .patch(`/api/connections/${connectionId}/schedule`)
      .set(bearer(admin))
      .send({ verify_weekly: true });
    expect(patched.status).toBe(200);
    expect(JSON.stringify(patched.body)).toContain('"verify_weekly":true');
    const latest = await runBackup(ctx, admin.token, { connectionId });

    /** The drills the schedule started, as the audit trail tells them, once every one has ended. */
    const scheduledDrills = async (): Promise<
      Array<{ target: { id: string }; details: Record<string, unknown> }>
    > => {
      const events = async (action: string) => {
        const response = await ctx.http
          .get('/api/audit-events')
          .query({ action, limit: 100 })
          .set(bearer(admin));
        expect(response.status).toBe(200);
        return response.body.events as Array<{
          actor: { type: string };
          target: { id: string };
          details: Record<string, unknown>;
        }>;
      };
      const deadline = Date.now() + 60_000;
      for (;;) {
        const started = (await events('drill.started')).filter((event) => event.actor.type === 'schedule');
        const ended = new Set((await events('drill.passed')).map((event) => event.target.id));
        if (started.every((event) => ended.has(event.target.id))) return started;
        if (Date.now() > deadline) throw new Error('a scheduled drill did not pass');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const job = ctx.app.get(WeeklyVerificationJob);
    /** Runs the weekly job judging by `now` and waits until its drills have ended. */
    const week = async (now: Date) => {
      const before = (await scheduledDrills()).length;
      expect(await job.enqueue(now)).not.toBeNull();
      const deadline = Date.now() + 60_000;
      while ((await scheduledDrills()).length === before && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200));
      return scheduledDrills();
    };

    const first = await week(new Date());
    expect(first).toHaveLength(1);
    expect(first[0].details).toMatchObject({ connection_id: connectionId, backup_id: latest.id });

    // The same week again (a retried or duplicated run): no second drill.
    await job.enqueue(new Date(Date.now() + 1000));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await scheduledDrills()).toHaveLength(1);

    // The next week: one more.
    const next = await week(new Date(Date.now() + 7 * 86_400_000));
    expect(next).toHaveLength(2);
  });
});
