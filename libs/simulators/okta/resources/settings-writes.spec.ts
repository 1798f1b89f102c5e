import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient, type ClientResponse } from '@libs/simulators/okta/testing/simulator-client.js';

type Obj = Record<string, unknown>;

/** Writes to the org-level types a restore will replay: each verb, each lifecycle gate. */
describe('writes to schemas, security, integrations, brands and admin roles', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;

  beforeAll(async () => {
    sut = await startSimulator({ users: 30, groups: 6, apps: 5, seed: 8 });
    client = new SimulatorClient(sut);
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  const call = (method: string, path: string, json?: unknown) =>
    client.call(method, path, json === undefined ? {} : { json });
  const body = (response: ClientResponse) => response.body as Obj;
  const status = (response: ClientResponse) => [
    response.status,
    (response.body as Obj | undefined)?.errorCode,
  ];

  it('creates a user type with its own schema, updates the schema, refuses to delete the default type', async () => {
    const created = await call('POST', '/api/v1/meta/types/user', {
      name: 'partner',
      displayName: 'Partner',
    });
    expect(created.status).toBe(200);
    const type = body(created);
    const schemaHref = String((type._links as { schema: { href: string } }).schema.href);
    const schemaPath = new URL(schemaHref).pathname;
    const added = await call('POST', schemaPath, {
      definitions: { custom: { properties: { partnerId: { title: 'Partner id', type: 'string' } } } },
    });
    expect((body(added).definitions as { custom: { properties: Obj } }).custom.properties).toHaveProperty(
      'partnerId',
    );
    const removed = await call('POST', schemaPath, {
      definitions: { custom: { properties: { partnerId: null } } },
    });
    expect(
      (body(removed).definitions as { custom: { properties: Obj } }).custom.properties,
    ).not.toHaveProperty('partnerId');

    const defaultType = sut.snapshot().user_type.find((t) => t.data.default === true)!;
    expect(status(await call('DELETE', `/api/v1/meta/types/user/${defaultType.id}`))).toEqual([
      403,
      'E0000006',
    ]);
    expect((await call('DELETE', `/api/v1/meta/types/user/${String(type.id)}`)).status).toBe(204);
    expect((await call('GET', schemaPath)).status).toBe(404);
  });

  it('creates linked objects by name (201), refuses a duplicate, deletes them', async () => {
    const definition = {
      primary: { name: 'mentor', title: 'Mentor', type: 'USER' },
      associated: { name: 'mentee', title: 'Mentee', type: 'USER' },
    };
    expect((await call('POST', '/api/v1/meta/schemas/user/linkedObjects', definition)).status).toBe(201);
    expect(status(await call('POST', '/api/v1/meta/schemas/user/linkedObjects', definition))).toEqual([
      400,
      'E0000001',
    ]);
    expect(body(await call('GET', '/api/v1/meta/schemas/user/linkedObjects/mentor'))).toMatchObject(
      definition,
    );
    expect((await call('DELETE', '/api/v1/meta/schemas/user/linkedObjects/mentor')).status).toBe(204);
  });

  it('keeps hook secrets write-only and deletes only INACTIVE hooks', async () => {
    const created = await call('POST', '/api/v1/eventHooks', {
      name: 'Audit',
      events: { type: 'EVENT_TYPE', items: ['user.lifecycle.create'] },
      channel: {
        type: 'HTTP',
        version: '1.0.0',
        config: {
          uri: 'https://hooks.example.com/a',
          authScheme: { type: 'HEADER', key: 'Authorization', value: 's3cr3t' },
        },
      },
    });
    expect(created.status).toBe(200);
    expect(created.text).not.toContain('s3cr3t');
    const id = String(body(created).id);
    expect(status(await call('DELETE', `/api/v1/eventHooks/${id}`))).toEqual([403, 'E0000006']);
    expect(body(await call('POST', `/api/v1/eventHooks/${id}/lifecycle/deactivate`))).toMatchObject({
      status: 'INACTIVE',
    });
    expect((await call('DELETE', `/api/v1/eventHooks/${id}`)).status).toBe(204);

    const inline = await call('POST', '/api/v1/inlineHooks', {
      name: 'Tokens',
      type: 'com.okta.oauth2.tokens.transform',
      channel: {
        type: 'OAUTH',
        version: '1.0.0',
        config: { uri: 'https://hooks.example.com/t', clientSecret: 'n0pe', clientId: 'c' },
      },
    });
    expect(inline.text).not.toContain('n0pe');
    const updated = await call('POST', `/api/v1/inlineHooks/${String(body(inline).id)}`, {
      name: 'Tokens v2',
    });
    expect(body(updated)).toMatchObject({ name: 'Tokens v2', type: 'com.okta.oauth2.tokens.transform' });
  });

  it('creates, replaces, deactivates and deletes identity providers, authenticators and behaviors', async () => {
    const idp = body(
      await call('POST', '/api/v1/idps', { name: 'Acme', type: 'OIDC', protocol: { type: 'OIDC' } }),
    );
    expect(idp).toMatchObject({ status: 'ACTIVE', issuerMode: 'ORG_URL' });
    // One mapping from the IdP's users to each user type, one back from the default type (recorded).
    const userTypes = sut.snapshot().user_type;
    const mappings = async (query: string) =>
      (body(await call('GET', `/api/v1/mappings?${query}=${String(idp.id)}`)) as unknown as Obj[]).map(
        (mapping) => (mapping[query === 'sourceId' ? 'target' : 'source'] as Obj).id,
      );
    expect((await mappings('sourceId')).sort()).toEqual(userTypes.map((type) => type.id).sort());
    expect(await mappings('targetId')).toEqual([userTypes.find((type) => type.data.default === true)!.id]);
    expect(
      body(await call('PUT', `/api/v1/idps/${String(idp.id)}`, { name: 'Acme 2', type: 'OIDC' })),
    ).toMatchObject({ name: 'Acme 2' });
    expect((await call('DELETE', `/api/v1/idps/${String(idp.id)}`)).status).toBe(204);

    const authenticator = body(
      await call('POST', '/api/v1/authenticators?activate=false', {
        key: 'google_otp',
        name: 'Google Authenticator',
      }),
    );
    expect(authenticator.status).toBe('INACTIVE');
    expect(
      body(await call('POST', `/api/v1/authenticators/${String(authenticator.id)}/lifecycle/activate`)),
    ).toMatchObject({ status: 'ACTIVE' });
    expect((await call('DELETE', `/api/v1/authenticators/${String(authenticator.id)}`)).status).toBe(405);

    expect(status(await call('POST', '/api/v1/behaviors', { name: 'x', type: 'NOPE' }))).toEqual([
      400,
      'E0000001',
    ]);
    const behavior = body(
      await call('POST', '/api/v1/behaviors', {
        name: 'Far away',
        type: 'ANOMALOUS_LOCATION',
        settings: { maxEventsUsedForEvaluation: 10 },
      }),
    );
    expect((await call('DELETE', `/api/v1/behaviors/${String(behavior.id)}`)).status).toBe(204);
  });

  it('gives a new brand its theme, email templates and sign-out page; customizes content and pages', async () => {
    const brand = body(await call('POST', '/api/v1/brands', { name: 'Subsidiary' }));
    const brandId = String(brand.id);
    const templates = (
      await client.walk(`/api/v1/brands/${brandId}/templates/email?limit=200&expand=customizationCount`)
    ).items;
    expect(templates.length).toBeGreaterThan(10);
    expect(templates[0]).toMatchObject({ _embedded: { customizationCount: 0 } });
    expect((await client.walk(`/api/v1/brands/${brandId}/themes`)).items).toHaveLength(1);

    const customization = await call(
      'POST',
      `/api/v1/brands/${brandId}/templates/email/ForgotPassword/customizations`,
      {
        language: 'en',
        subject: 'Reset',
        body: 'Click ${resetPasswordLink}',
      },
    );
    expect(customization.status).toBe(201);
    expect(body(customization)).toMatchObject({ isDefault: true, language: 'en' });
    expect(
      body(
        await call(
          'GET',
          `/api/v1/brands/${brandId}/templates/email/ForgotPassword?expand=customizationCount`,
        ),
      ),
    ).toMatchObject({
      _embedded: { customizationCount: 1 },
    });

    expect((await call('GET', `/api/v1/brands/${brandId}/pages/sign-in/customized`)).status).toBe(404);
    await call('PUT', `/api/v1/brands/${brandId}/pages/sign-in/customized`, { pageContent: '<html></html>' });
    expect(body(await call('GET', `/api/v1/brands/${brandId}/pages/sign-in/customized`))).toEqual({
      pageContent: '<html></html>',
    });
    expect(body(await call('GET', `/api/v1/brands/${brandId}/pages/sign-out/customized`))).toEqual({
      type: 'OKTA_DEFAULT',
    });

    const main = sut.snapshot().brand.find((b) => b.data.isDefault === true)!;
    expect(status(await call('DELETE', `/api/v1/brands/${main.id}`))).toEqual([409, 'E0000001']);
    expect((await call('DELETE', `/api/v1/brands/${brandId}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/brands/${brandId}/themes`)).status).toBe(404);
  });

  it("assigns an app's sign-on policy, answers client secrets in clear and deletes only inactive ones", async () => {
    const snapshot = sut.snapshot();
    const oidc = snapshot.app.find((a) => a.data.signOnMode === 'OPENID_CONNECT')!;
    const policy = snapshot.policy.find((p) => p.data.type === 'ACCESS_POLICY')!;
    expect((await call('PUT', `/api/v1/apps/${oidc.id}/policies/${policy.id}`)).status).toBe(204);
    const app = body(await call('GET', `/api/v1/apps/${oidc.id}`));
    expect((app._links as { accessPolicy: { href: string } }).accessPolicy.href).toMatch(
      new RegExp(`/api/v1/policies/${policy.id}$`),
    );

    const secret = await call('POST', `/api/v1/apps/${oidc.id}/credentials/secrets`);
    expect(secret.status).toBe(201);
    expect(body(secret)).toMatchObject({ status: 'ACTIVE', client_secret: expect.any(String) });
    const path = `/api/v1/apps/${oidc.id}/credentials/secrets/${String(body(secret).id)}`;
    expect(status(await call('DELETE', path))).toEqual([400, 'E0000001']);
    await call('POST', `${path}/lifecycle/deactivate`);
    expect((await call('DELETE', path)).status).toBe(204);
    const bookmark = snapshot.app.find((a) => a.data.signOnMode === 'BOOKMARK')!;
    expect((await call('GET', `/api/v1/apps/${bookmark.id}/features`)).status).toBe(400);
  });

  it("updates a feature with its own capabilities only: INBOUND_PROVISIONING's import settings and rules", async () => {
    const feature = sut.snapshot().app_feature.find((f) => f.data.name === 'INBOUND_PROVISIONING')!;
    const path = `/api/v1/apps/${feature.id.split(':')[0]}/features/INBOUND_PROVISIONING`;
    const { importSettings, importRules } = feature.data.capabilities as Obj;
    const rules = {
      userCreateAndMatch: { ...(importRules as Obj).userCreateAndMatch!, autoConfirmNewUsers: true },
    };
    const updated = await call('PUT', path, {
      importSettings,
      importRules: rules,
      update: { lifecycleDeactivate: { status: 'ENABLED' } },
    });
    expect(updated.status).toBe(200);
    expect(body(updated).capabilities).toEqual({ importSettings, importRules: rules });
    expect(
      status(await call('PUT', path, { update: { lifecycleDeactivate: { status: 'ENABLED' } } })),
    ).toEqual([400, 'E0000001']);
  });

  it('assigns admin roles to users and groups; a user lists the roles its groups hold too', async () => {
    const snapshot = sut.snapshot();
    const [user] = snapshot.user.filter(
      (u) => u.data.status === 'ACTIVE' && !snapshot.admin_role_assignment.some((r) => r.id.startsWith(u.id)),
    );
    const group = snapshot.group.find(
      (g) =>
        g.data.type === 'OKTA_GROUP' && snapshot.group_membership.some((m) => m.id === `${g.id}:${user.id}`),
    )!;
    const direct = await call('POST', `/api/v1/users/${user.id}/roles`, { type: 'REPORT_ADMIN' });
    expect(direct.status).toBe(201);
    await call('POST', `/api/v1/groups/${group.id}/roles`, { type: 'MOBILE_ADMIN' });
    const roles = (await call('GET', `/api/v1/users/${user.id}/roles`)).body as Obj[];
    expect(roles.map((r) => [r.type, r.assignmentType])).toEqual([
      ['REPORT_ADMIN', 'USER'],
      ['MOBILE_ADMIN', 'GROUP'],
    ]);
    const assignees = async () =>
      (body(await call('GET', '/api/v1/iam/assignees/users?limit=100')).value as Obj[]).map((u) => u.id);
    expect(await assignees()).toContain(user.id);
    expect(status(await call('POST', `/api/v1/users/${user.id}/roles`, { type: 'NOT_A_ROLE' }))).toEqual([
      400,
      'E0000001',
    ]);
    await call('DELETE', `/api/v1/users/${user.id}/roles/${String(body(direct).id)}`);
    expect(await assignees()).not.toContain(user.id);
  });

  it('creates custom roles with permissions, resource sets with resources, bindings and members', async () => {
    const role = body(
      await call('POST', '/api/v1/iam/roles', {
        label: 'Auditor',
        description: 'Reads',
        permissions: ['okta.users.read'],
      }),
    );
    const roleId = String(role.id);
    expect((await call('POST', `/api/v1/iam/roles/${roleId}/permissions/okta.groups.read`)).status).toBe(204);
    const permissions = body(await call('GET', '/api/v1/iam/roles/Auditor/permissions')).permissions as Obj[];
    expect(permissions.map((p) => p.label)).toEqual(['okta.users.read', 'okta.groups.read']);

    const group = sut.snapshot().group[1];
    const set = body(
      await call('POST', '/api/v1/iam/resource-sets', {
        label: 'Scope',
        description: 'One group',
        resources: [`${sut.baseUrl}/api/v1/groups/${group.id}`],
      }),
    );
    const setId = String(set.id);
    expect(
      body(await call('GET', `/api/v1/iam/resource-sets/${setId}/resources`)).resources as Obj[],
    ).toHaveLength(1);
    const user = sut.snapshot().user[2];
    const binding = await call('POST', `/api/v1/iam/resource-sets/${setId}/bindings`, {
      role: roleId,
      members: [`${sut.baseUrl}/api/v1/users/${user.id}`],
    });
    expect(body(binding)).toMatchObject({ id: roleId });
    const members = body(await call('GET', `/api/v1/iam/resource-sets/${setId}/bindings/${roleId}/members`))
      .members as Obj[];
    expect(members).toHaveLength(1);
    const assigned = await call('POST', `/api/v1/users/${user.id}/roles`, {
      type: 'CUSTOM',
      role: roleId,
      'resource-set': setId,
    });
    expect(body(assigned)).toMatchObject({
      type: 'CUSTOM',
      role: roleId,
      'resource-set': setId,
      label: 'Auditor',
    });
    expect((await call('DELETE', `/api/v1/iam/resource-sets/${setId}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/iam/resource-sets/${setId}/bindings`)).status).toBe(404);
  });

  it('updates a profile mapping property by property (null removes one)', async () => {
    const mapping = sut.snapshot().profile_mapping[0];
    const updated = await call('POST', `/api/v1/mappings/${mapping.id}`, {
      properties: { nickName: { expression: 'appuser.nickname', pushStatus: 'DONT_PUSH' }, email: null },
    });
    const properties = body(updated).properties as Obj;
    expect(properties).toHaveProperty('nickName');
    expect(properties).not.toHaveProperty('email');
    const listed = (await client.walk('/api/v1/mappings?limit=200')).items;
    expect(listed.every((m) => !('properties' in m))).toBe(true);
  });
});
