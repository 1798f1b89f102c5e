import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { changeOrgAsAdmins } from '@libs/simulators/okta/testing/org-changes.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;

/**
 * Incremental backups (docs/backups.md): after a full backup, the org changes
 * through its Okta API (changeOrgAsAdmins: users created, edited, deleted; memberships added and
 * removed; a group deleted and one created; a policy edited), then an incremental and a forced full backup of the
 * same state must hold exactly the same records.
 */
describe('incremental backups (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let base: BackupDto;
  let incremental: BackupDto;
  let full: BackupDto;

  /** Every record of a backup as `type/id -> content hash`. */
  const contents = async (backup: BackupDto): Promise<Map<string, string>> => {
    const reader = await openSnapshot(ctx, backup.storage_key);
    const entries = new Map<string, string>();
    for await (const entry of reader.readIndex()) entries.set(`${entry.type}/${entry.id}`, entry.hash);
    return entries;
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 150, groups: 10, apps: 4, seed: 31 });
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    // Not today: the default full backup day (Sunday) would make every run of a Sunday full.
    const schedule = await ctx.http
      .patch(`/api/connections/${connectionId}/schedule`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ full_backup_day: (new Date().getUTCDay() + 1) % 7 });
    expect(schedule.status).toBe(200);
    base = await runBackup(ctx, admin.token, { connectionId });

    await changeOrgAsAdmins(org.sim, okta);

    incremental = await runBackup(ctx, admin.token, { connectionId });
    full = await runBackup(ctx, admin.token, { connectionId, forceFullBackup: true });
  });

  afterAll(async () => {
    await ctx?.close();
    await okta?.agent.close();
    await org?.sim.close();
  });

  it('runs incremental over the latest completed backup unless asked for a full one', () => {
    expect(base).toMatchObject({ status: 'completed', kind: 'full', base_backup_id: null });
    expect(incremental).toMatchObject({ status: 'completed', kind: 'incremental', base_backup_id: base.id });
    expect(full).toMatchObject({ status: 'completed', kind: 'full', base_backup_id: null });
  });

  it('holds exactly what a full backup of the same org state holds', async () => {
    const merged = await contents(incremental);
    const fetched = await contents(full);

    expect(merged.size).toBe(fetched.size);
    expect([...merged].sort()).toEqual([...fetched].sort());
    expect(incremental.resource_counts).toEqual(full.resource_counts);
    expect(await contents(base)).not.toEqual(fetched);
  });

  it('asks Okta for less than a full backup does', () => {
    expect(incremental.requests).toBeLessThan(full.requests as number);
  });

  it('is self-contained: it reads and verifies without its base', async () => {
    const reader = await openSnapshot(ctx, incremental.storage_key);
    await rm(join(ctx.dataDir, 'objects', base.storage_key), { recursive: true, force: true });

    await expect(reader.verify()).resolves.toBeUndefined();
    expect(reader.manifest.meta).toMatchObject({
      kind: 'incremental',
      baseBackupId: base.id,
      // Okta's cursors: an instant for each type it lists by change (ProviderConnector ResourceCursors).
      cursors: { user: expect.any(String), group: expect.any(String), group_membership: expect.any(String) },
    });
  });

  it('runs full when the schedule turns incremental backups off, or on its full backup day', async () => {
    const patch = (body: Json) =>
      ctx.http
        .patch(`/api/connections/${connectionId}/schedule`)
        .set('Authorization', `Bearer ${admin.token}`)
        .send(body);

    expect((await patch({ incremental_enabled: false })).status).toBe(200);
    expect(await runBackup(ctx, admin.token, { connectionId })).toMatchObject({ kind: 'full' });

    expect((await patch({ incremental_enabled: true, full_backup_day: new Date().getUTCDay() })).status).toBe(
      200,
    );
    expect(await runBackup(ctx, admin.token, { connectionId })).toMatchObject({ kind: 'full' });

    expect((await patch({ full_backup_day: (new Date().getUTCDay() + 1) % 7 })).status).toBe(200);
    expect(await runBackup(ctx, admin.token, { connectionId })).toMatchObject({ kind: 'incremental' });
  });

  it('falls back to a full run, and completes, when the base snapshot is gone from the store', async () => {
    const latest = await runBackup(ctx, admin.token, { connectionId });
    expect(latest.kind).toBe('incremental');
    await rm(join(ctx.dataDir, 'objects', latest.storage_key), { recursive: true, force: true });

    const next = await runBackup(ctx, admin.token, { connectionId });

    expect(next).toMatchObject({ status: 'completed', kind: 'full', base_backup_id: null });
    expect((await contents(next)).size).toBe((await contents(full)).size);
  });
});
