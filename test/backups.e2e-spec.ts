import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, openSnapshot, waitForBackup } from './support/backup-helpers.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { BackupsService } from '@app/backups/backups.service.js';

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('backups of a generated Okta org (HTTP, real PostgreSQL, filesystem store, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let backup: BackupDto;

  beforeAll(async () => {
    org = await startTestOrg({ users: 450, groups: 15, apps: 6, seed: 11 });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    const run = await ctx.http
      .post('/api/backup/run')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ connectionId });
    expect(run.status).toBe(202);
    expect(run.body).toEqual({
      backupId: expect.any(String),
      instanceId: expect.any(String),
      status: 'started',
    });
    const second = await ctx.http
      .post('/api/backup/run')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ connectionId });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('backup_in_progress');
    const final = await waitForBackup(ctx, admin.token, run.body.backupId);
    expect(final).toMatchObject({ status: 'completed', progress_pct: 100 });
    backup = (
      await ctx.http.get(`/api/backup/${run.body.backupId}`).set('Authorization', `Bearer ${admin.token}`)
    ).body.backup;
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  const readBack = async (type: string): Promise<Map<string, ResourceRecord>> => {
    const reader = await openSnapshot(ctx, backup.storage_key);
    const records = new Map<string, ResourceRecord>();
    for await (const record of reader.readPart(type)) records.set(record.id, record);
    return records;
  };

  it('holds exactly the objects of the org, by id and content, for every resource type', async () => {
    const expected = org.sim.snapshot();
    expect(Object.keys(backup.resource_counts).sort()).toEqual(Object.keys(expected).sort());
    for (const [type, objects] of Object.entries(expected)) {
      const stored = await readBack(type);
      expect([type, stored.size]).toEqual([type, objects.length]);
      expect([type, backup.resource_counts[type]]).toEqual([type, objects.length]);
      for (const object of objects) expect(stored.get(object.id)?.data).toEqual(object.data);
    }
    expect(backup.resource_counts.user).toBe(450);
    expect(backup.size).toBeGreaterThan(0);
    expect(backup.requests).toBeGreaterThan(0);
    expect(backup.connection).toEqual({
      id: connectionId,
      provider: 'okta',
      org_name: 'Test org',
      org_url: org.sim.baseUrl,
    });
  });

  it('stores only encrypted bytes: no login appears in them, not even after gunzip', () => {
    const logins = org.sim
      .snapshot()
      .user.slice(0, 20)
      .map((user) => (user.data.profile as { login: string }).login);
    const files = filesUnder(join(ctx.dataDir, 'objects', backup.storage_key));
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const login of logins) expect(bytes.includes(Buffer.from(login))).toBe(false);
      expect(() => gunzipSync(bytes)).toThrow();
    }
  });

  it('detects one flipped byte in a stored part', async () => {
    const userPart = filesUnder(join(ctx.dataDir, 'objects', backup.storage_key)).find((file) =>
      file.endsWith('/parts/user.ndjson.gz.enc'),
    );
    expect(userPart).toBeDefined();
    const original = readFileSync(userPart!);
    const tampered = Buffer.from(original);
    tampered[Math.floor(tampered.length / 2)] ^= 0x01;
    writeFileSync(userPart!, tampered);
    try {
      await expect(readBack('user')).rejects.toThrow();
    } finally {
      writeFileSync(userPart!, original);
    }
    expect((await readBack('user')).size).toBe(450);
  });

  it('lists, filters and counts backups of the team', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const list = await ctx.http
      .get('/api/backup/list')
      .query({ includeStats: 'true', status: 'completed', connectionId })
      .set(auth);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.backups[0].id).toBe(backup.id);
    expect(list.body.stats).toMatchObject({
      totalBackups: 1,
      completedBackups: 1,
      failedBackups: 0,
      successRate: 1,
      totalSize: backup.size,
    });
    expect(list.body.stats.resourceTypes).toContain('user');

    const none = await ctx.http.get('/api/backup/list').query({ status: 'failed' }).set(auth);
    expect(none.body).toEqual({ backups: [], total: 0, stats: null });
    const bySearch = await ctx.http
      .get('/api/backup/list')
      .query({ search: 'Test org', resourceTypes: 'group_rule,nothing', minSize: 1 })
      .set(auth);
    expect(bySearch.body.total).toBe(1);
    const tooBig = await ctx.http.get('/api/backup/list').query({ maxSize: 1 }).set(auth);
    expect(tooBig.body.total).toBe(0);

    const hugePage = await ctx.http.get('/api/backup/list').query({ limit: 100000 }).set(auth);
    expect(hugePage.status).toBe(400);
    expect(hugePage.body.code).toBe('validation_failed');

    const active = await ctx.http.get('/api/backup/active').set(auth);
    expect(active.body).toEqual({ active: [] });
  });

  it('refuses an unknown resource type or category in include, listing the valid ones', async () => {
    const response = await ctx.http
      .post('/api/backup/run')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ connectionId, include: ['user', 'unicorn'] });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(
      /unknown resource type or category unicorn; valid values: users, groups, /,
    );
    expect(response.body.details[0]).toMatchObject({
      field: 'include',
      unknown: ['unicorn'],
      valid: expect.arrayContaining(['users', 'groups', 'user', 'group', 'trusted_origin']),
    });
  });

  it('refuses a viewer running a backup (403) and lets it read (200)', async () => {
    const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    const run = await ctx.http
      .post('/api/backup/run')
      .set('Authorization', `Bearer ${viewer.token}`)
      .send({ connectionId });
    expect(run.status).toBe(403);
    expect(run.body).toMatchObject({ code: 'forbidden' });
    const read = await ctx.http
      .get(`/api/backup/${backup.id}`)
      .set('Authorization', `Bearer ${viewer.token}`);
    expect(read.status).toBe(200);
  });

  it("answers 404 for another team's backup and connection, whatever the verb", async () => {
    const stranger = await ctx.newClient({ role: 'super_admin' });
    const auth = { Authorization: `Bearer ${stranger.token}` };
    expect((await ctx.http.get(`/api/backup/${backup.id}`).set(auth)).status).toBe(404);
    expect((await ctx.http.get('/api/backup/status').query({ backupId: backup.id }).set(auth)).status).toBe(
      404,
    );
    expect((await ctx.http.delete(`/api/backup/${backup.id}`).set(auth)).status).toBe(404);
    expect((await ctx.http.get(`/api/connections/${connectionId}`).set(auth)).status).toBe(404);
    const run = await ctx.http.post('/api/backup/run').set(auth).send({ connectionId });
    expect(run.status).toBe(404);
    expect((await ctx.http.get('/api/backup/list').set(auth)).body.total).toBe(0);
  });

  it('never returns the client secret', async () => {
    const response = await ctx.http
      .get(`/api/connections/${connectionId}`)
      .set('Authorization', `Bearer ${admin.token}`);
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).not.toContain(org.integration.clientSecret);
    expect(response.body.connection).toMatchObject({
      id: connectionId,
      org_url: org.sim.baseUrl,
      client_id: org.integration.clientId,
    });
  });

  it('pages the list newest first, each page counting every match, a page past the end too', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const run = await ctx.http
      .post('/api/backup/run')
      .set(auth)
      .send({ connectionId, include: ['group'] });
    await waitForBackup(ctx, admin.token, run.body.backupId);
    const page = async (offset: number) =>
      (await ctx.http.get('/api/backup/list').query({ connectionId, limit: 1, offset }).set(auth)).body as {
        backups: Array<{ id: string }>;
        total: number;
      };
    try {
      expect(await page(0)).toMatchObject({ backups: [{ id: run.body.backupId }], total: 2 });
      expect(await page(1)).toMatchObject({ backups: [{ id: backup.id }], total: 2 });
      expect(await page(2)).toEqual({ backups: [], total: 2, stats: null });
    } finally {
      await ctx.http.delete(`/api/backup/${run.body.backupId}`).set(auth).expect(200);
    }
  });

  it('deletes a backup: its record and every stored object', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const run = await ctx.http
      .post('/api/backup/run')
      .set(auth)
      .send({ connectionId, include: ['network', 'group'] });
    expect(run.status).toBe(202);
    await waitForBackup(ctx, admin.token, run.body.backupId);
    const second = (await ctx.http.get(`/api/backup/${run.body.backupId}`).set(auth)).body.backup;
    // The `network` category and one type, in the connector's dependency order.
    expect(second.resource_types).toEqual(['network_zone', 'group', 'trusted_origin']);
    const dir = join(ctx.dataDir, 'objects', second.storage_key);
    expect(filesUnder(dir).length).toBeGreaterThan(0);

    const deleted = await ctx.http.delete(`/api/backup/${second.id}`).set(auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect(() => filesUnder(dir)).toThrow();
    expect((await ctx.http.get(`/api/backup/${second.id}`).set(auth)).status).toBe(404);
  });
  it("expires backups past the team plan's retention, records and objects (run last: it empties the store and deletes the connection)", async () => {
    const day = 24 * 3600 * 1000;
    const service = ctx.app.get(BackupsService);
    expect(await service.deleteExpired(new Date(Date.now() + 364 * day))).toBe(0);
    expect(
      (await ctx.http.get(`/api/backup/${backup.id}`).set('Authorization', `Bearer ${admin.token}`)).status,
    ).toBe(200);

    // The newest completed backup of a live connection stays (docs/backups.md "Retention"); once
    // the connection is deleted, its backups expire like any other.
    await service.deleteExpired(new Date(Date.now() + 366 * day));
    expect(
      (await ctx.http.get(`/api/backup/${backup.id}`).set('Authorization', `Bearer ${admin.token}`)).status,
    ).toBe(200);
    expect(
      (
        await ctx.http
          .delete(`/api/connections/${connectionId}`)
          .set('Authorization', `Bearer ${admin.token}`)
      ).status,
    ).toBe(200);
    expect(await service.deleteExpired(new Date(Date.now() + 366 * day))).toBeGreaterThanOrEqual(1);
    expect(
      (await ctx.http.get(`/api/backup/${backup.id}`).set('Authorization', `Bearer ${admin.token}`)).status,
    ).toBe(404);
    expect(() => filesUnder(join(ctx.dataDir, 'objects', backup.storage_key))).toThrow();
  });
});
