import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { openSnapshot, runBackup } from './support/backup-helpers.js';
import { entraConnectionBody, patchGraph, startTestTenant, type TestTenant } from './support/entra-tenant.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const FIXTURE = scubaGearFile();

interface Change {
  resourceType: string;
  action: string;
  resource: { id: string; name: string | null };
  severity: string;
  rule: string;
}

/**
 * Microsoft Entra ID end to end (docs/resource-types.md "Microsoft Entra ID"): a connection to the Graph
 * simulator seeded from a real tenant (CISA ScubaGear's export), a full backup holding every object exactly,
 * a conditional access policy turned off and reported critical by the diff, and team scoping.
 */
(FIXTURE ? describe : describe.skip)(
  'Entra ID backups (HTTP, real PostgreSQL, Graph simulator over HTTPS)',
  () => {
    let tenant: TestTenant;
    let ctx: TestApp;
    let admin: TestClient;
    let connectionId: string;
    let first: BackupDto;

    const auth = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });
    /** Opens the backup's snapshot and checks it holds every object of the simulated tenant, exactly. */
    const holdsTenant = async (backup: BackupDto) => {
      const reader = await openSnapshot(ctx, backup.storage_key!);
      for (const [type, records] of Object.entries(tenant.sim.snapshot())) {
        const stored = [];
        for await (const record of reader.readPart(type))
          stored.push({ id: record.id, name: record.name, data: record.data });
        expect({ type, records: stored }).toEqual({ type, records });
      }
      return reader;
    };
    const create = (body: Record<string, unknown>) =>
      ctx.http.post('/api/connections/create').set(auth(admin)).send(body);

    beforeAll(async () => {
      tenant = await startTestTenant(
        { scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 30, groups: 4, seed: 30 },
        providerDescriptor('entra_id')!.grants(),
      );
      ctx = await startTestApp(tenant.env);
      admin = await ctx.newClient({ role: 'admin' });
    });
    afterAll(async () => {
      await ctx?.close();
      await tenant?.sim.close();
    });

    it('refuses an app registration missing a permission a backup needs, naming it', async () => {
      const partial = tenant.sim.registerApp(
        providerDescriptor('entra_id')!
          .grants()
          .filter((role) => role !== 'Policy.Read.AuthenticationMethod'),
      );
      const response = await create(entraConnectionBody(tenant, partial));
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/Policy\.Read\.AuthenticationMethod/);
      expect(JSON.stringify(response.body)).not.toContain(partial.clientSecret);
    });

    it('refuses an Entra connection without tenant_id, and tenant_id on an Okta one or an Okta one without org_url', async () => {
      const { tenant_id: _tenantId, ...withoutTenant } = entraConnectionBody(tenant);
      const missing = await create(withoutTenant);
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('tenant_id is required for entra_id connections');
      const okta = await create({ ...entraConnectionBody(tenant), provider: 'okta' });
      expect(okta.status).toBe(400);
      expect(okta.body.error).toBe('tenant_id is not a field of okta connections');
      // org_url defaults to Graph for Entra ID only: an Okta connection must still name its org.
      const oktaWithoutUrl: Record<string, string> = { ...entraConnectionBody(tenant), provider: 'okta' };
      delete oktaWithoutUrl.org_url;
      delete oktaWithoutUrl.tenant_id;
      const noUrl = await create(oktaWithoutUrl);
      expect(noUrl.status).toBe(400);
      expect(noUrl.body).toMatchObject({
        code: 'validation_failed',
        error: 'org_url is required for okta connections',
      });
    });

    it('creates the connection after a token proves the credentials; the secret is never returned', async () => {
      const response = await create(entraConnectionBody(tenant));
      expect(response.status).toBe(201);
      expect(response.body.connection).toMatchObject({ provider: 'entra_id', org_url: tenant.sim.baseUrl });
      expect(JSON.stringify(response.body)).not.toContain(tenant.app.clientSecret);
      connectionId = response.body.connection.id as string;
      const read = await ctx.http.get(`/api/connections/${connectionId}`).set(auth(admin));
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain(tenant.app.clientSecret);
      expect(tenant.sim.requestCounts()['POST /{tenant}/oauth2/v2.0/token']).toBeGreaterThanOrEqual(1);
    });

    it('re-proves changed credentials on PATCH, permissions included', async () => {
      const partial = tenant.sim.registerApp(
        providerDescriptor('entra_id')!
          .grants()
          .filter((role) => role !== 'Policy.Read.PermissionGrant'),
      );
      const refused = await ctx.http
        .patch(`/api/connections/${connectionId}`)
        .set(auth(admin))
        .send({ client_id: partial.clientId, client_secret: partial.clientSecret });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/Policy\.Read\.PermissionGrant/);
      const renamed = await ctx.http
        .patch(`/api/connections/${connectionId}`)
        .set(auth(admin))
        .send({ org_name: 'Contoso (real tenant)' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.connection).toMatchObject({
        org_name: 'Contoso (real tenant)',
        provider: 'entra_id',
      });
    });

    it('backs up the real tenant: the snapshot holds every simulated object exactly', async () => {
      first = await runBackup(ctx, admin.token, { connectionId });
      expect(first.status).toBe('completed');
      const expected = tenant.sim.snapshot();
      expect(first.resource_counts).toEqual(
        Object.fromEntries(Object.entries(expected).map(([type, records]) => [type, records.length])),
      );
      expect(expected.conditional_access_policy).toHaveLength(7);
      const reader = await holdsTenant(first);
      // Every type of the list, the real tenant's objects among them.
      expect(Object.keys(expected).sort()).toEqual([...providerDescriptor('entra_id')!.resourceTypes].sort());
      for (const [type, records] of Object.entries(expected))
        expect({ type, n: records.length }).not.toEqual({ type, n: 0 });
      expect(expected.role_assignment.map(({ data }) => data.roleDefinitionId)).toContain(
        '62e90394-69f5-4237-9190-012177145e10',
      );
      const credentials = [
        'passwordCredentials[].secretText',
        'keyCredentials[].key',
        'private keys (Entra holds only certificates)',
      ];
      expect(reader.manifest.meta.notCaptured).toEqual({
        user: ['passwordProfile.password', '/v1.0/users/{id}/authentication/methods'],
        application: credentials,
        service_principal: credentials,
      });
    });

    it('reports a conditional access policy turned off through Graph as critical', async () => {
      const policy = tenant.sim.snapshot().conditional_access_policy.find((p) => p.data.state === 'enabled')!;
      const patched = await patchGraph(
        tenant,
        'Policy.ReadWrite.ConditionalAccess',
        `/identity/conditionalAccess/policies/${policy.id}`,
        { state: 'disabled' },
      );
      expect(patched).toBe(204);
      const second = await runBackup(ctx, admin.token, { connectionId });
      expect(second.status).toBe('completed');
      // Incremental over the first by the schedule's defaults: users, groups, members, applications,
      // service principals, units and grants through delta queries, the policies listed in full;
      // it still equals the tenant.
      expect(second.kind).toBe('incremental');
      await holdsTenant(second);
      const response = await ctx.http
        .post('/api/diff')
        .set(auth(admin))
        .send({ fromBackupId: first.id, toBackupId: second.id });
      expect(response.status).toBe(200);
      const changes = response.body.changes as Change[];
      expect(changes).toEqual([
        expect.objectContaining({
          resourceType: 'conditional_access_policy',
          action: 'modified',
          resource: expect.objectContaining({ id: policy.id, name: policy.name }),
          severity: 'critical',
          rule: 'entra-ca-policy-disabled',
        }),
      ]);
    });

    it('reports a new Global Administrator as critical', async () => {
      const before = await runBackup(ctx, admin.token, { connectionId });
      const user = tenant.sim.snapshot().user.find(({ data }) => data.userType === 'Member')!;
      const created = await patchGraph(
        tenant,
        'RoleManagement.ReadWrite.Directory',
        '/roleManagement/directory/roleAssignments',
        {
          principalId: user.id,
          roleDefinitionId: '62e90394-69f5-4237-9190-012177145e10',
          directoryScopeId: '/',
        },
        'POST',
      );
      expect(created).toBe(201);
      const after = await runBackup(ctx, admin.token, { connectionId });
      await holdsTenant(after);
      const response = await ctx.http
        .post('/api/diff')
        .set(auth(admin))
        .send({ fromBackupId: before.id, toBackupId: after.id });
      expect(response.status).toBe(200);
      // An active assignment is listed as an assignment schedule too ("unifiedRoleAssignmentSchedule").
      expect(response.body.changes as Change[]).toEqual(
        ['role_assignment_schedule', 'role_assignment'].map((resourceType) =>
          expect.objectContaining({
            resourceType,
            action: 'added',
            severity: 'critical',
            rule: 'entra-global-admin-added',
          }),
        ),
      );
    });

    it('answers 404 to another team for the connection, its backups and their diff', async () => {
      const outsider = await ctx.newClient({ role: 'admin' });
      expect((await ctx.http.get(`/api/connections/${connectionId}`).set(auth(outsider))).status).toBe(404);
      expect((await ctx.http.get(`/api/backup/${first.id}`).set(auth(outsider))).status).toBe(404);
      const run = await ctx.http.post('/api/backup/run').set(auth(outsider)).send({ connectionId });
      expect(run.status).toBe(404);
      const diff = await ctx.http
        .post('/api/diff')
        .set(auth(outsider))
        .send({ fromBackupId: first.id, toBackupId: first.id });
      expect(diff.status).toBe(404);
    });
  },
);
