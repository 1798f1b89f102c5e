import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import {
  GLOBAL_ADMINISTRATOR_ROLE,
  MICROSOFT_GRAPH_APP_ID as MICROSOFT_GRAPH,
} from './seed/generate-directory.js';
import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { graphClient, type GraphTestClient } from './testing/graph-client.js';

/** The roles of an app that restores applications, units and roles. */
const RESTORER_ROLES = [
  'Application.ReadWrite.All',
  'AppRoleAssignment.ReadWrite.All',
  'AdministrativeUnit.ReadWrite.All',
  'RoleManagement.ReadWrite.Directory',
  'Directory.Read.All',
];

/** The writes of application-writes.routes.ts and role-writes.routes.ts, as a restore makes them. */
describe('Entra simulator: application, unit and role writes', () => {
  let sim: RunningEntraSimulator;
  let client: GraphTestClient;
  const ref = (id: string) => ({ '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${id}` });

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 8, groups: 2, seed: 7 });
    client = await graphClient(sim, RESTORER_ROLES);
  });
  afterAll(async () => {
    await client?.close();
    await sim?.close();
  });

  it('creates an application with a new id and appId, seen by delta, then its service principal', async () => {
    const delta = await client.call('GET', '/v1.0/applications/delta?$deltatoken=latest');
    const app = await client.call('POST', '/v1.0/applications', {
      displayName: 'Payroll',
      signInAudience: 'AzureADMyOrg',
      identifierUris: ['api://payroll'],
    });
    expect(app).toMatchObject({
      status: 201,
      body: {
        displayName: 'Payroll',
        id: expect.any(String),
        appId: expect.any(String),
        passwordCredentials: [],
      },
    });
    expect(app.body.id).not.toBe(app.body.appId);
    const changes = await client.call('GET', String(delta.body['@odata.deltaLink']));
    expect(changes.body.value.map(({ id }) => id)).toEqual([app.body.id]);
    // A secret is never taken on create; a certificate needs its key.
    const noKey = await client.call('POST', '/v1.0/applications', {
      displayName: 'Keyless',
      keyCredentials: [{ type: 'AsymmetricX509Cert', usage: 'Verify', key: null }],
    });
    expect(noKey.status).toBe(400);
    expect((await client.call('POST', '/v1.0/applications', {})).status).toBe(400);

    const sp = await client.call('POST', '/v1.0/servicePrincipals', { appId: app.body.appId });
    expect(sp).toMatchObject({
      status: 201,
      body: {
        appId: app.body.appId,
        displayName: 'Payroll',
        servicePrincipalNames: [app.body.appId, 'api://payroll'],
      },
    });
    expect(
      (await client.call('PATCH', `/v1.0/servicePrincipals/${String(sp.body.id)}`, { notes: 'HR' })).status,
    ).toBe(204);
    expect((await client.call('POST', '/v1.0/servicePrincipals', { appId: app.body.appId })).status).toBe(
      409,
    );
    const unknown = await client.call('POST', '/v1.0/servicePrincipals', {
      appId: '00000000-0000-4000-a000-000000000001',
    });
    expect(unknown.status).toBe(400);
  });

  it('deletes an application with its service principal; restoring the application leaves that deleted', async () => {
    const app = await client.call('POST', '/v1.0/applications', { displayName: 'Short-lived' });
    const sp = await client.call('POST', '/v1.0/servicePrincipals', { appId: app.body.appId });
    expect((await client.call('DELETE', `/v1.0/applications/${String(app.body.id)}`)).status).toBe(204);
    const deleted = await client.call('GET', '/v1.0/directory/deletedItems/microsoft.graph.servicePrincipal');
    expect(deleted.body.value.map(({ id }) => id)).toContain(sp.body.id);
    await client.call('POST', `/v1.0/directory/deletedItems/${String(app.body.id)}/restore`);
    expect((await client.call('GET', `/v1.0/servicePrincipals/${String(sp.body.id)}`)).status).toBe(404);
  });

  it('adds and removes application owners, federated credentials and extension properties', async () => {
    const [app] = (await client.call('GET', '/v1.0/applications')).body.value;
    const appPath = `/v1.0/applications/${String(app.id)}`;
    const [user] = sim.snapshot().user;
    const [group] = sim.snapshot().group;
    const owners = async () => (await client.call('GET', `${appPath}/owners`)).body.value.map(({ id }) => id);
    await client.call('DELETE', `${appPath}/owners/${user.id}/$ref`);
    expect((await client.call('POST', `${appPath}/owners/$ref`, ref(user.id))).status).toBe(204);
    expect(await owners()).toContain(user.id);
    expect((await client.call('POST', `${appPath}/owners/$ref`, ref(user.id))).status).toBe(400);
    expect((await client.call('POST', `${appPath}/owners/$ref`, ref(group.id))).status).toBe(400);
    expect((await client.call('DELETE', `${appPath}/owners/${user.id}/$ref`)).status).toBe(204);
    expect(await owners()).not.toContain(user.id);

    const credential = {
      name: 'github-release',
      issuer: 'https://token.actions.githubusercontent.com',
      subject: 'repo:contoso/app:environment:prod',
      audiences: ['api://AzureADTokenExchange'],
    };
    const fic = await client.call('POST', `${appPath}/federatedIdentityCredentials`, credential);
    expect(fic).toMatchObject({ status: 201, body: { ...credential, id: expect.any(String) } });
    expect((await client.call('POST', `${appPath}/federatedIdentityCredentials`, credential)).status).toBe(
      400,
    );
    const ficPath = `${appPath}/federatedIdentityCredentials/${String(fic.body.id)}`;
    expect(
      (await client.call('PATCH', ficPath, { subject: 'repo:contoso/app:ref:refs/heads/main' })).status,
    ).toBe(204);
    expect((await client.call('PATCH', ficPath, { name: 'renamed' })).status).toBe(400);
    const listed = await client.call('GET', `${appPath}/federatedIdentityCredentials`);
    expect(listed.body.value).toContainEqual(
      expect.objectContaining({ id: fic.body.id, subject: 'repo:contoso/app:ref:refs/heads/main' }),
    );
    expect((await client.call('DELETE', ficPath)).status).toBe(204);

    const extension = await client.call('POST', `${appPath}/extensionProperties`, {
      name: 'badge',
      dataType: 'String',
      targetObjects: ['User'],
    });
    expect(extension).toMatchObject({
      status: 201,
      body: { name: `extension_${String(app.appId).replace(/-/g, '')}_badge`, isMultiValued: false },
    });
    expect(
      (await client.call('DELETE', `${appPath}/extensionProperties/${String(extension.body.id)}`)).status,
    ).toBe(204);
  });

  it('grants and deletes an app role assignment of a role the resource declares, once', async () => {
    const snapshot = sim.snapshot();
    const resource = snapshot.service_principal.find(
      ({ data }) => data.appId === '00000003-0000-0000-c000-000000000000',
    )!;
    const appRoleId = (resource.data.appRoles as Array<{ id: string }>)[1].id;
    const [user] = snapshot.user;
    const path = `/v1.0/servicePrincipals/${resource.id}/appRoleAssignedTo`;
    const body = { principalId: user.id, resourceId: resource.id, appRoleId };
    const granted = await client.call('POST', path, body);
    expect(granted).toMatchObject({
      status: 201,
      body: { ...body, principalType: 'User', resourceDisplayName: 'Microsoft Graph' },
    });
    expect((await client.call('POST', path, body)).status).toBe(400);
    expect(
      (await client.call('POST', path, { ...body, appRoleId: '00000000-0000-4000-a000-000000000002' }))
        .status,
    ).toBe(400);
    expect((await client.call('DELETE', `${path}/${String(granted.body.id)}`)).status).toBe(204);
    expect((await client.call('GET', path)).body.value.map(({ id }) => id)).not.toContain(granted.body.id);
  });

  it('creates an administrative unit, adds and removes members and a scoped role member', async () => {
    const [user, other] = sim.snapshot().user;
    const unit = await client.call('POST', '/v1.0/directory/administrativeUnits', {
      displayName: 'Lyon office',
    });
    expect(unit).toMatchObject({ status: 201, body: { displayName: 'Lyon office', visibility: null } });
    const unitPath = `/v1.0/directory/administrativeUnits/${String(unit.body.id)}`;
    expect((await client.call('POST', `${unitPath}/members/$ref`, ref(user.id))).status).toBe(204);
    expect((await client.call('GET', `${unitPath}/members`)).body.value.map(({ id }) => id)).toEqual([
      user.id,
    ]);
    expect((await client.call('DELETE', `${unitPath}/members/${user.id}/$ref`)).status).toBe(204);
    const member = await client.call('POST', `${unitPath}/scopedRoleMembers`, {
      roleId: '4a1c6b2e-0000-4000-a000-000000000003',
      roleMemberInfo: { id: other.id },
    });
    expect(member).toMatchObject({
      status: 201,
      body: {
        administrativeUnitId: unit.body.id,
        roleMemberInfo: { id: other.id, displayName: other.data.displayName },
      },
    });
    expect(
      (await client.call('DELETE', `${unitPath}/scopedRoleMembers/${String(member.body.id)}`)).status,
    ).toBe(204);
  });

  it('creates, updates and deletes a custom role definition, never a built-in one', async () => {
    const path = '/v1.0/roleManagement/directory/roleDefinitions';
    const body = {
      displayName: 'Helpdesk reader',
      isEnabled: true,
      rolePermissions: [{ allowedResourceActions: ['microsoft.directory/users/standard/read'] }],
    };
    const role = await client.call('POST', path, body);
    expect(role).toMatchObject({
      status: 201,
      body: { ...body, isBuiltIn: false, templateId: role.body.id },
    });
    expect((await client.call('POST', path, body)).status).toBe(400);
    expect(
      (await client.call('PATCH', `${path}/${String(role.body.id)}`, { description: 'Reads users' })).status,
    ).toBe(204);
    expect((await client.call('GET', `${path}/${String(role.body.id)}`)).body).toMatchObject({
      description: 'Reads users',
    });
    expect((await client.call('DELETE', `${path}/${String(role.body.id)}`)).status).toBe(204);
    expect((await client.call('DELETE', `${path}/${GLOBAL_ADMINISTRATOR_ROLE}`)).status).toBe(400);
  });

  it('deletes a role assignment, and assigns and removes PIM schedules through schedule requests', async () => {
    const [assignment] = (await client.call('GET', '/v1.0/roleManagement/directory/roleAssignments')).body
      .value;
    const assignmentPath = `/v1.0/roleManagement/directory/roleAssignments/${String(assignment.id)}`;
    expect((await client.call('DELETE', assignmentPath)).status).toBe(204);
    expect((await client.call('GET', assignmentPath)).status).toBe(404);

    const user = sim.snapshot().user[5];
    const target = {
      principalId: user.id,
      roleDefinitionId: GLOBAL_ADMINISTRATOR_ROLE,
      directoryScopeId: '/',
    };
    const scheduleInfo = {
      startDateTime: '2026-01-01T00:00:00Z',
      expiration: { type: 'afterDateTime', endDateTime: '2027-06-01T00:00:00Z' },
    };
    for (const [requests, schedules] of [
      ['roleEligibilityScheduleRequests', 'roleEligibilitySchedules'],
      ['roleAssignmentScheduleRequests', 'roleAssignmentSchedules'],
    ]) {
      const path = `/v1.0/roleManagement/directory/${requests}`;
      const list = async () =>
        (await client.call('GET', `/v1.0/roleManagement/directory/${schedules}`)).body.value.filter(
          (s) => s.principalId === user.id,
        );
      // The role's PIM settings require a justification (pim.ts).
      const justification = 'Granted by the spec';
      const assigned = await client.call('POST', path, {
        action: 'adminAssign',
        ...target,
        scheduleInfo,
        justification,
      });
      expect(assigned).toMatchObject({ status: 201, body: { status: 'Provisioned', ...target } });
      expect(await list()).toEqual([
        expect.objectContaining({ ...target, scheduleInfo, status: 'Provisioned' }),
      ]);
      const again = await client.call('POST', path, {
        action: 'adminAssign',
        ...target,
        scheduleInfo,
        justification,
      });
      expect(again).toMatchObject({ status: 400, body: { error: { code: 'RoleAssignmentExists' } } });
      expect((await client.call('POST', path, { action: 'adminRemove', ...target })).status).toBe(201);
      expect(await list()).toEqual([]);
      const gone = await client.call('POST', path, { action: 'adminRemove', ...target });
      expect(gone).toMatchObject({ status: 400, body: { error: { code: 'RoleAssignmentDoesNotExist' } } });
    }
  });

  it("creates a service principal of another organization's app by its appId, as the one the tenant had", async () => {
    const graphSp = sim.snapshot().service_principal.find(({ data }) => data.appId === MICROSOFT_GRAPH)!;
    expect((await client.call('DELETE', `/v1.0/servicePrincipals/${graphSp.id}`)).status).toBe(204);
    expect((await client.call('DELETE', `/v1.0/directory/deletedItems/${graphSp.id}`)).status).toBe(204);

    const created = await client.call('POST', '/v1.0/servicePrincipals', { appId: MICROSOFT_GRAPH });

    expect(created.status).toBe(201);
    expect(created.body.id).not.toBe(graphSp.id);
    const { appRoles, oauth2PermissionScopes, appOwnerOrganizationId, displayName } = graphSp.data;
    expect(created.body).toMatchObject({
      appRoles,
      oauth2PermissionScopes,
      appOwnerOrganizationId,
      displayName,
    });
  });

  it('refuses the writes to an app without their permission', async () => {
    const reader = await graphClient(sim, ['Application.Read.All', 'RoleManagement.Read.Directory']);
    try {
      expect((await reader.call('POST', '/v1.0/applications', { displayName: 'x' })).status).toBe(403);
      const request = {
        action: 'adminAssign',
        principalId: 'x',
        roleDefinitionId: 'y',
        directoryScopeId: '/',
      };
      expect(
        (await reader.call('POST', '/v1.0/roleManagement/directory/roleEligibilityScheduleRequests', request))
          .status,
      ).toBe(403);
    } finally {
      await reader.close();
    }
  });
});
