import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { csdlFile, scubaGearFile } from './testing/fixture-paths.js';
import { DIRECTORY_WRITER_ROLES, graphCall, graphClient } from './testing/graph-client.js';

const FIXTURE = scubaGearFile();

/** Reads of the directory's second batch of types (directory.routes.ts), as a client makes them. */
describe('Entra simulator: applications, roles, units and the other policies', () => {
  let sim: RunningEntraSimulator;

  /** GET (or `method` with a JSON `body`) `/v1.0<path>` with a token of an app granted `roles`. */
  const get = (path: string, roles: string[], method: 'GET' | 'POST' = 'GET', body?: unknown) =>
    graphCall(sim, roles, method, path.replace(/^\/v1\.0/, ''), body);

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 12, groups: 3, seed: 5 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('lists custom role definitions with $filter=isBuiltIn eq false and refuses another filter', async () => {
    const roles = ['RoleManagement.Read.Directory'];
    const all = await get('/v1.0/roleManagement/directory/roleDefinitions', roles);
    const custom = await get(
      `/v1.0/roleManagement/directory/roleDefinitions?$filter=${encodeURIComponent('isBuiltIn eq false')}`,
      roles,
    );
    expect(all.body.value.some((role) => role.isBuiltIn === true)).toBe(true);
    expect(custom.body.value.length).toBeGreaterThan(0);
    expect(custom.body.value.every((role) => role.isBuiltIn === false)).toBe(true);
    const refused = await get(
      `/v1.0/roleManagement/directory/roleDefinitions?$filter=${encodeURIComponent("displayName eq 'x'")}`,
      roles,
    );
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'BadRequest' } } });
  });

  it('creates a role assignment with RoleManagement.ReadWrite.Directory, for an existing role only', async () => {
    const path = '/v1.0/roleManagement/directory/roleAssignments';
    const [user] = sim.snapshot().user;
    const body = {
      principalId: user.id,
      roleDefinitionId: '62e90394-69f5-4237-9190-012177145e10',
      directoryScopeId: '/',
    };
    expect((await get(path, ['RoleManagement.Read.Directory'], 'POST', body)).status).toBe(403);
    const writer = ['RoleManagement.ReadWrite.Directory'];
    const created = await get(path, writer, 'POST', body);
    expect(created).toMatchObject({ status: 201, body: { ...body, id: expect.stringMatching(/-1$/) } });
    expect(sim.snapshot().role_assignment.map(({ id }) => id)).toContain(created.body.id);
    const unknownRole = { ...body, roleDefinitionId: '00000000-0000-4000-a000-000000000000' };
    expect((await get(path, writer, 'POST', unknownRole)).status).toBe(400);
    expect((await get(path, writer, 'POST', { principalId: user.id })).status).toBe(400);
  });

  it('lists application owners as directory objects, and needs an application permission', async () => {
    const [app] = (await get('/v1.0/applications', ['Application.Read.All'])).body.value;
    const owners = await get(`/v1.0/applications/${String(app.id)}/owners?$select=id`, [
      'Application.Read.All',
    ]);
    expect(owners.status).toBe(200);
    expect(owners.body.value.length).toBeGreaterThan(0);
    expect(owners.body.value.every((owner) => owner['@odata.type'] === '#microsoft.graph.user')).toBe(true);
    expect((await get('/v1.0/applications', ['User.Read.All'])).status).toBe(403);
    const secret = (app.passwordCredentials as Array<Record<string, unknown>>)[0];
    expect(secret).toMatchObject({ secretText: null });
  });

  it("answers the organization's branding, and 404 for an organization it does not know", async () => {
    const roles = ['OrganizationalBranding.Read.All'];
    const branding = await get(`/v1.0/organization/${sim.tenantId}/branding`, roles);
    expect(branding).toMatchObject({ status: 200, body: { id: '0' } });
    const unknown = await get('/v1.0/organization/00000000-0000-4000-a000-000000000000/branding', roles);
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'Request_ResourceNotFound' } } });
  });

  it('answers singletons without an id where Graph does, and partners by tenant id', async () => {
    const consent = await get('/v1.0/policies/adminConsentRequestPolicy', ['Policy.Read.All']);
    expect(consent.status).toBe(200);
    expect(consent.body).not.toHaveProperty('id');
    expect(consent.body).toHaveProperty('isEnabled');
    const partners = await get('/v1.0/policies/crossTenantAccessPolicy/partners', ['Policy.Read.All']);
    const tenantId = String(partners.body.value[0].tenantId);
    const partner = await get(`/v1.0/policies/crossTenantAccessPolicy/partners/${tenantId}`, [
      'Policy.Read.All',
    ]);
    expect(partner).toMatchObject({ status: 200, body: { tenantId } });
  });

  it('tracks applications, units and grants by delta; an application goes to the deleted items and back', async () => {
    const writer = await graphClient(sim, DIRECTORY_WRITER_ROLES);
    const reader = await graphClient(sim, [
      'Application.Read.All',
      'AdministrativeUnit.Read.All',
      'Directory.Read.All',
    ]);
    try {
      const first = await reader.call('GET', '/v1.0/applications/delta');
      expect(first.status).toBe(200);
      const [app] = first.body.value;
      const link = String(first.body['@odata.deltaLink']);
      const units = await reader.call('GET', '/v1.0/directory/administrativeUnits/delta?$deltatoken=latest');
      const grants = await reader.call('GET', '/v1.0/oauth2PermissionGrants/delta?$deltatoken=latest');
      const [grant] = (await reader.call('GET', '/v1.0/oauth2PermissionGrants')).body.value;

      expect(
        (await writer.call('PATCH', `/v1.0/applications/${String(app.id)}`, { displayName: 'Audited app' }))
          .status,
      ).toBe(204);
      // Graph refuses a property the type does not declare.
      expect(
        await writer.call('PATCH', `/v1.0/applications/${String(app.id)}`, { shoeSize: 9 }),
      ).toMatchObject({
        status: 400,
      });
      expect((await writer.call('DELETE', `/v1.0/oauth2PermissionGrants/${String(grant.id)}`)).status).toBe(
        204,
      );
      const round = await reader.call('GET', link);
      expect(round.body.value).toEqual([{ id: app.id, displayName: 'Audited app' }]);
      expect((await reader.call('GET', String(units.body['@odata.deltaLink']))).body.value).toEqual([]);
      // A grant is no directory object: deleted for good.
      expect((await reader.call('GET', String(grants.body['@odata.deltaLink']))).body.value).toEqual([
        { id: grant.id, '@removed': { reason: 'deleted' } },
      ]);

      // An application goes to the deleted items, and comes back with its id.
      expect((await writer.call('DELETE', `/v1.0/applications/${String(app.id)}`)).status).toBe(204);
      const deleted = await reader.call('GET', '/v1.0/directory/deletedItems/microsoft.graph.application');
      expect(deleted.body.value.map((item) => item.id)).toEqual([app.id]);
      const restored = await writer.call('POST', `/v1.0/directory/deletedItems/${String(app.id)}/restore`);
      expect(restored).toMatchObject({
        status: 200,
        body: { id: app.id, '@odata.type': '#microsoft.graph.application' },
      });
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it("opens the grants delta to Directory.Read.All, not to the list's DelegatedPermissionGrant.Read.All", async () => {
    expect((await get('/v1.0/oauth2PermissionGrants/delta', ['Directory.Read.All'])).status).toBe(200);
    expect(
      await get('/v1.0/oauth2PermissionGrants/delta', ['DelegatedPermissionGrant.Read.All']),
    ).toMatchObject({
      status: 403,
      body: { error: { code: 'Authorization_RequestDenied' } },
    });
  });
});

(FIXTURE ? describe : describe.skip)('Entra simulator: the real tenant’s directory objects', () => {
  let sim: RunningEntraSimulator;

  beforeAll(async () => {
    sim = await startEntraSimulator({ scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 3, groups: 1 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('holds the export’s role assignments, app registrations, service principals and group settings', () => {
    const snapshot = sim.snapshot();
    const ids = (type: string) => snapshot[type].map((record) => record.id);
    // Global Administrator assignments of the export, each with its schedule.
    expect(ids('role_assignment')).toContain('lAPpYvVpN0KRkAEhdxReEKsS0t41g7xBusEO5u7F7ls-1');
    expect(ids('role_assignment_schedule')).toContain('ebe48aea-6c2c-41b4-8c9d-b1967e53e214');
    expect(ids('application')).toEqual(
      expect.arrayContaining([
        '123456c3-bb2e-462a-a89e-9520273e018c',
        '8d541234-2496-4f2d-87b7-68103db92569',
      ]),
    );
    expect(snapshot.federated_identity_credential).toContainEqual(
      expect.objectContaining({
        id: '123456c3-bb2e-462a-a89e-9520273e018c:a5746045-c5f6-476d-861b-831642f11111',
        data: expect.objectContaining({ audiences: ['api://AzureADTokenExchange'] }),
      }),
    );
    expect(ids('service_principal')).toEqual(
      expect.arrayContaining([
        'b3a51547-3f8c-475b-83f7-315ecc411111',
        'dca11ffc-add3-4e8e-bdf6-58fd0c411111',
      ]),
    );
    // The third-party app's consented Policy.Read.All, an app role assignment on Graph.
    expect(snapshot.app_role_assignment).toContainEqual(
      expect.objectContaining({
        data: expect.objectContaining({
          principalId: 'dca11ffc-add3-4e8e-bdf6-58fd0c411111',
          appRoleId: '246dd0d5-5bd0-4def-940b-0421030a5b68',
        }),
      }),
    );
    expect(ids('group_setting')).toEqual(
      expect.arrayContaining([
        '5ce54204-ef8d-44c5-af88-dc8bd4c16069',
        '62c1305f-60f0-4096-8d72-e1f74e8627f5',
      ]),
    );
  });
});
