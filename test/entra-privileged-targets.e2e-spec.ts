import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ENTRA_RESOURCE_TYPES } from '@libs/providers/entra/entra-resource-catalog.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { GLOBAL_ADMINISTRATOR_ROLE } from '@libs/simulators/entra/seed/generate-directory.js';
import { graphClient, type GraphTestClient } from '@libs/simulators/entra/testing/graph-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { runBackup } from './support/backup-helpers.js';
import { createEntraConnection, startTestTenant, type TestTenant } from './support/entra-tenant.js';
import { runRestore } from './support/restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** The tenant's own admin tool: directory writes and role management. */
const ADMIN_ROLES = [
  'User.ReadWrite.All',
  'RoleManagement.ReadWrite.Directory',
  'RoleManagement.Read.Directory',
];

/**
 * Re-enabling a disabled Global Administrator, the typical attacker's move undone (docs/restore.md
 * "Privileged targets"): Graph lets an app-only write change a privileged user's accountEnabled
 * only when the app itself holds a role that may act on it ("Update user"; Who can perform
 * sensitive actions). Through the HTTP API on real PostgreSQL and the Graph simulator over HTTPS:
 * without the role the preview names the target and the item fails with Graph's 403; once the
 * restore app holds Global Administrator, the same restore re-enables the user.
 */
describe('Entra restore of a privileged target (HTTP, real PostgreSQL, Graph simulator over HTTPS)', () => {
  let tenant: TestTenant;
  let ctx: TestApp;
  let admin: TestClient;
  let graph: GraphTestClient;
  let backup: BackupDto;
  let target: { id: string; upn: string };
  /** Another Global Administrator, whose job title alone was changed. */
  let retitled: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await graph.call(method, `/v1.0${path}`, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  /** Makes `principalId` a Global Administrator, as an admin does in Roles and administrators. */
  const makeGlobalAdministrator = (principalId: string) =>
    call('POST', '/roleManagement/directory/roleAssignments', {
      principalId,
      roleDefinitionId: GLOBAL_ADMINISTRATOR_ROLE,
      directoryScopeId: '/',
    });
  const preview = async () => {
    const answer = await ctx.http
      .get('/api/restore')
      .set('Authorization', `Bearer ${admin.token}`)
      .query({ backupId: backup.id, resourceTypes: 'user' });
    expect(answer.status).toBe(200);
    const rows = answer.body.preview as Array<{ resourceType: string; update: number; notes: string[] }>;
    return rows.find((row) => row.resourceType === 'user')!;
  };
  const restoreUsers = () =>
    runRestore(ctx, admin.token, { backupId: backup.id, mode: 'selective', resourceTypes: ['user'] });

  beforeAll(async () => {
    tenant = await startTestTenant(
      { users: 6, groups: 1, seed: 44 },
      providerDescriptor('entra_id')!.grants(ENTRA_RESOURCE_TYPES),
    );
    ctx = await startTestApp(tenant.env);
    admin = await ctx.newClient({ role: 'admin' });
    const adminApp = tenant.sim.registerApp(ADMIN_ROLES);
    graph = await graphClient(tenant.sim, adminApp);
    // The admin's own tool acts on administrators: it holds Global Administrator itself.
    await makeGlobalAdministrator(tenant.sim.servicePrincipalOf(adminApp.clientId));
    const [user, other] = tenant.sim.snapshot().user.filter(({ data }) => data.accountEnabled === true);
    target = { id: user.id, upn: String(user.data.userPrincipalName) };
    retitled = other.id;
    await makeGlobalAdministrator(target.id);
    await makeGlobalAdministrator(retitled);
    const connectionId = await createEntraConnection(ctx, admin.token, tenant);
    backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    // The attacker's move: the Global Administrator disabled.
    await call('PATCH', `/users/${target.id}`, { accountEnabled: false });
    await call('PATCH', `/users/${retitled}`, { jobTitle: 'Changed by mistake' });
  });

  afterAll(async () => {
    await graph?.close();
    await ctx?.close();
    await tenant?.sim.close();
  });

  it('without a directory role the preview names the target and the item fails with Graph 403', async () => {
    const row = await preview();
    expect(row.update).toBe(2);
    expect(row.notes).toContainEqual(
      `Privileged target ${target.upn} (${target.id}) holds Global Administrator: the restore app holds no role that may act on it (Global Administrator or Privileged Authentication Administrator), so Graph refuses app-only writes to its accountEnabled, phones, other e-mails, password and sign-in name, and its deletion (403); activate the role for the restore app first (docs/restore.md "Privileged targets")`,
    );

    const restored = await restoreUsers();
    const item = restored.items.find((entry) => entry.resourceId === target.id)!;
    expect(item).toMatchObject({ action: 'update', outcome: 'failed' });
    expect(String(item.error)).toBe(
      `Graph refused PATCH /v1.0/users/{id} (Authorization_RequestDenied: Insufficient privileges to complete the operation.): ${target.upn} holds Global Administrator, and app-only writes to it need the restore app to hold Global Administrator or Privileged Authentication Administrator`,
    );
    expect((await call('GET', `/users/${target.id}?$select=accountEnabled`)).accountEnabled).toBe(false);
    // A change of no sensitive property needs no role: the update leaves the unchanged ones out.
    expect(restored.items.find((entry) => entry.resourceId === retitled)).toMatchObject({
      action: 'update',
      outcome: 'ok',
    });
  });

  it('once the restore app holds Global Administrator the preview says so and the user is enabled again', async () => {
    await makeGlobalAdministrator(tenant.sim.servicePrincipalOf(tenant.app.clientId));
    const row = await preview();
    expect(row.notes).toContainEqual(
      `Privileged target ${target.upn} (${target.id}) holds Global Administrator: the restore app holds a role that may act on it (Global Administrator or Privileged Authentication Administrator), so Graph allows it to re-enable, change or delete this user`,
    );

    const restored = await restoreUsers();
    expect(restored.items.find((entry) => entry.resourceId === target.id)).toMatchObject({
      action: 'update',
      outcome: 'ok',
    });
    expect((await call('GET', `/users/${target.id}?$select=accountEnabled`)).accountEnabled).toBe(true);
  });
});
