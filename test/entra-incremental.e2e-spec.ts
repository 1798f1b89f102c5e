import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DIRECTORY_WRITER_ROLES, graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { changeTenantAsAdmins, type TenantChanges } from '@libs/simulators/entra/testing/tenant-changes.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { openSnapshot, runBackup } from './support/backup-helpers.js';
import { createEntraConnection, startTestTenant, type TestTenant } from './support/entra-tenant.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type StoredRecord = { id: string; name: string | null; data: unknown };

/**
 * Entra ID incremental backups (docs/resource-types.md "Microsoft Entra ID"): after a full backup, the
 * tenant's admins change it through Graph (a user updated, one created, one deleted, one deleted and restored
 * from the deleted items, a Microsoft 365 group created with members, a member removed, a security group
 * deleted, an application and an administrative unit renamed, a service principal deleted, a
 * delegated permission grant changed and one created), then an incremental backup reads the changes through delta queries and holds, record
 * by record, what a forced full backup of the same tenant state holds; a lost sync state (410)
 * makes the next run full.
 */
describe('Entra ID incremental backups (HTTP, real PostgreSQL, Graph simulator over HTTPS)', () => {
  let tenant: TestTenant;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let base: BackupDto;
  let incremental: BackupDto;
  let full: BackupDto;
  let changes: TenantChanges;

  /** Every record of a backup, by type, sorted by id. */
  const contents = async (backup: BackupDto): Promise<Record<string, StoredRecord[]>> => {
    const reader = await openSnapshot(ctx, backup.storage_key!);
    const types: Record<string, StoredRecord[]> = {};
    for (const type of Object.keys(backup.resource_counts ?? {})) {
      const records: StoredRecord[] = [];
      for await (const record of reader.readPart(type))
        records.push({ id: record.id, name: record.name, data: record.data });
      types[type] = records.sort((a, b) => (a.id < b.id ? -1 : 1));
    }
    return types;
  };

  beforeAll(async () => {
    tenant = await startTestTenant(
      { users: 40, groups: 5, seed: 30 },
      providerDescriptor('entra_id')!.grants(),
    );
    ctx = await startTestApp(tenant.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createEntraConnection(ctx, admin.token, tenant);
    // Not today: the default full backup day (Sunday) would make every run of a Sunday full.
    const schedule = await ctx.http
      .patch(`/api/connections/${connectionId}/schedule`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ full_backup_day: (new Date().getUTCDay() + 1) % 7 });
    expect(schedule.status).toBe(200);
    base = await runBackup(ctx, admin.token, { connectionId });

    const writer = await graphClient(tenant.sim, DIRECTORY_WRITER_ROLES);
    changes = await changeTenantAsAdmins(tenant.sim, writer).finally(() => writer.close());

    incremental = await runBackup(ctx, admin.token, { connectionId });
    full = await runBackup(ctx, admin.token, { connectionId, forceFullBackup: true });
  });

  afterAll(async () => {
    await ctx?.close();
    await tenant?.sim.close();
  });

  it('runs incremental over the latest completed backup, with delta links kept encrypted in its manifest', async () => {
    expect(base).toMatchObject({ status: 'completed', kind: 'full', base_backup_id: null });
    expect(incremental).toMatchObject({ status: 'completed', kind: 'incremental', base_backup_id: base.id });
    expect(full).toMatchObject({ status: 'completed', kind: 'full', base_backup_id: null });
    const reader = await openSnapshot(ctx, incremental.storage_key!);
    const { cursors } = reader.manifest.meta as { cursors: Record<string, string> };
    expect(Object.keys(cursors).sort()).toEqual([
      'administrative_unit',
      'application',
      'group',
      'group_membership',
      'oauth2_permission_grant',
      'service_principal',
      'user',
    ]);
    expect(new URL((JSON.parse(cursors.user) as { deltaLink: string }).deltaLink).pathname).toBe(
      '/v1.0/users/delta',
    );
  });

  it('holds, record by record, what a full backup of the same tenant state holds', async () => {
    const merged = await contents(incremental);
    const fetched = await contents(full);
    expect(incremental.resource_counts).toEqual(full.resource_counts);
    for (const type of Object.keys(fetched))
      expect({ type, records: merged[type] }).toEqual({ type, records: fetched[type] });
    // ...which is the tenant as Graph now has it: the changes are in, the deletions out.
    const now = tenant.sim.snapshot();
    for (const [type, records] of Object.entries(now))
      expect({ type, ids: merged[type].map((r) => r.id) }).toEqual({
        type,
        ids: records.map((r) => r.id).sort(),
      });
    const ids = (type: string) => merged[type].map((r) => r.id);
    expect(ids('user')).toEqual(expect.arrayContaining([changes.createdUser, changes.restoredUser]));
    expect(ids('user')).not.toContain(changes.deletedUser);
    expect(ids('group')).not.toContain(changes.deletedGroup);
    expect(ids('group_membership')).not.toContain(changes.removedMembership);
    expect(ids('service_principal')).not.toContain(changes.deletedServicePrincipal);
    expect(ids('oauth2_permission_grant')).toContain(changes.createdGrant);
    const application = merged.application.find((r) => r.id === changes.updatedApplication);
    expect(application?.name).toMatch(/\(legacy\)$/);
    expect(await contents(base)).not.toEqual(merged);
  });

  it('asks Graph for less than a full backup does', () => {
    expect(incremental.requests).toBeLessThan(full.requests as number);
  });

  it('runs full after a native Entra recovery since the base, which writes no delta records', async () => {
    const [user] = tenant.sim.snapshot().user;
    tenant.sim.recoverNatively([{ collection: 'users', id: user.id, properties: { jobTitle: 'Recovered' } }]);
    const next = await runBackup(ctx, admin.token, { connectionId });
    expect(next).toMatchObject({ status: 'completed', kind: 'full', base_backup_id: null });
    const stored = await contents(next);
    expect(stored.user.find((r) => r.id === user.id)?.data).toMatchObject({ jobTitle: 'Recovered' });
    const now = tenant.sim.snapshot();
    for (const [type, records] of Object.entries(now))
      expect({ type, ids: stored[type].map((r) => r.id) }).toEqual({
        type,
        ids: records.map((r) => r.id).sort(),
      });
  });

  it('runs full when Graph no longer has the sync state of the base delta links (410)', async () => {
    tenant.sim.resetDeltaState();
    const next = await runBackup(ctx, admin.token, { connectionId });
    expect(next).toMatchObject({ status: 'completed', kind: 'full', base_backup_id: null });
    const stored = await contents(next);
    for (const [type, records] of Object.entries(tenant.sim.snapshot()))
      expect({ type, records: stored[type] }).toEqual({
        type,
        records: records
          .map(({ id, name, data }) => ({ id, name, data }))
          .sort((a, b) => (a.id < b.id ? -1 : 1)),
      });
  });
});
