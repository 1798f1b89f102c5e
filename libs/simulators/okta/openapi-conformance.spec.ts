import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from './index.js';
import type { RunningSimulator } from './simulator-options.js';
import { openApiFile } from './testing/fixture-paths.js';
import { OpenApiValidator } from './testing/openapi-validator.js';
import { SimulatorClient } from './testing/simulator-client.js';

const file = openApiFile();
if (!file)
  console.warn(
    'Okta OpenAPI description not found (../shared/fixtures or OKTA_OPENAPI_FILE): conformance specs skipped',
  );

type Ids = Record<string, string>;

/** [OpenAPI path, request URL built from ids of a generated org, expected status]. */
const CALLS: ReadonlyArray<[string, (ids: Ids) => string, number?]> = [
  ['/api/v1/users', () => '/api/v1/users?limit=200&search=status+pr'],
  ['/api/v1/users/{id}', (i) => `/api/v1/users/${i.user}`],
  ['/api/v1/users/{id}/groups', (i) => `/api/v1/users/${i.user}/groups`],
  ['/api/v1/groups', () => '/api/v1/groups'],
  ['/api/v1/groups', () => '/api/v1/groups?limit=10000&expand=stats'],
  ['/api/v1/groups/{groupId}', (i) => `/api/v1/groups/${i.group}`],
  ['/api/v1/groups/{groupId}/users', (i) => `/api/v1/groups/${i.group}/users`],
  ['/api/v1/groups/rules', () => '/api/v1/groups/rules'],
  ['/api/v1/groups/rules/{groupRuleId}', (i) => `/api/v1/groups/rules/${i.groupRule}`],
  ['/api/v1/apps', () => '/api/v1/apps'],
  ['/api/v1/apps/{appId}', (i) => `/api/v1/apps/${i.app}`],
  ['/api/v1/apps/{appId}/users', (i) => `/api/v1/apps/${i.app}/users?limit=500`],
  ['/api/v1/apps/{appId}/users/{userId}', (i) => `/api/v1/apps/${i.app}/users/${i.appUser}`],
  ['/api/v1/apps/{appId}/groups', (i) => `/api/v1/apps/${i.app}/groups`],
  ['/api/v1/apps/{appId}/groups/{groupId}', (i) => `/api/v1/apps/${i.app}/groups/${i.appGroup}`],
  ...['OKTA_SIGN_ON', 'PASSWORD', 'MFA_ENROLL', 'ACCESS_POLICY', 'PROFILE_ENROLLMENT', 'IDP_DISCOVERY'].map(
    (type) => ['/api/v1/policies', () => `/api/v1/policies?type=${type}`] as [string, () => string],
  ),
  ['/api/v1/policies/{policyId}', (i) => `/api/v1/policies/${i.policy}`],
  ['/api/v1/policies/{policyId}/rules', (i) => `/api/v1/policies/${i.policy}/rules`],
  ['/api/v1/policies/{policyId}/rules/{ruleId}', (i) => `/api/v1/policies/${i.policy}/rules/${i.policyRule}`],
  ['/api/v1/authorizationServers', () => '/api/v1/authorizationServers'],
  ['/api/v1/authorizationServers/{authServerId}', (i) => `/api/v1/authorizationServers/${i.server}`],
  [
    '/api/v1/authorizationServers/{authServerId}/scopes',
    (i) => `/api/v1/authorizationServers/${i.server}/scopes`,
  ],
  [
    '/api/v1/authorizationServers/{authServerId}/scopes/{scopeId}',
    (i) => `/api/v1/authorizationServers/${i.server}/scopes/${i.scope}`,
  ],
  [
    '/api/v1/authorizationServers/{authServerId}/claims',
    (i) => `/api/v1/authorizationServers/${i.server}/claims`,
  ],
  [
    '/api/v1/authorizationServers/{authServerId}/claims/{claimId}',
    (i) => `/api/v1/authorizationServers/${i.server}/claims/${i.claim}`,
  ],
  [
    '/api/v1/authorizationServers/{authServerId}/policies',
    (i) => `/api/v1/authorizationServers/${i.server}/policies`,
  ],
  [
    '/api/v1/authorizationServers/{authServerId}/policies/{policyId}',
    (i) => `/api/v1/authorizationServers/${i.server}/policies/${i.serverPolicy}`,
  ],
  [
    '/api/v1/authorizationServers/{authServerId}/policies/{policyId}/rules',
    (i) => `/api/v1/authorizationServers/${i.server}/policies/${i.serverPolicy}/rules`,
  ],
  [
    '/api/v1/authorizationServers/{authServerId}/policies/{policyId}/rules/{ruleId}',
    (i) => `/api/v1/authorizationServers/${i.server}/policies/${i.serverPolicy}/rules/${i.serverRule}`,
  ],
  ['/api/v1/zones', () => '/api/v1/zones'],
  ['/api/v1/zones/{zoneId}', (i) => `/api/v1/zones/${i.zone}`],
  ['/api/v1/trustedOrigins', () => '/api/v1/trustedOrigins'],
  ['/api/v1/trustedOrigins/{trustedOriginId}', (i) => `/api/v1/trustedOrigins/${i.origin}`],
  ['/api/v1/groups/{groupId}', () => '/api/v1/groups/00gmissing0000000000', 404],
  ['/api/v1/groups/{groupId}/owners', (i) => `/api/v1/groups/${i.ownedGroup}/owners`],
  ['/api/v1/meta/types/user', () => '/api/v1/meta/types/user'],
  ['/api/v1/meta/types/user/{typeId}', (i) => `/api/v1/meta/types/user/${i.userType}`],
  ['/api/v1/meta/schemas/user/{schemaId}', () => '/api/v1/meta/schemas/user/default'],
  ['/api/v1/meta/schemas/group/default', () => '/api/v1/meta/schemas/group/default'],
  ['/api/v1/meta/schemas/apps/{appId}/default', (i) => `/api/v1/meta/schemas/apps/${i.app}/default`],
  ['/api/v1/meta/schemas/user/linkedObjects', () => '/api/v1/meta/schemas/user/linkedObjects'],
  ['/api/v1/apps/{appId}/features', (i) => `/api/v1/apps/${i.samlApp}/features`],
  ['/api/v1/apps/{appId}/credentials/keys', (i) => `/api/v1/apps/${i.samlApp}/credentials/keys`],
  ['/api/v1/apps/{appId}/credentials/secrets', (i) => `/api/v1/apps/${i.oidcApp}/credentials/secrets`],
  ['/api/v1/authenticators', () => '/api/v1/authenticators'],
  ['/api/v1/behaviors', () => '/api/v1/behaviors'],
  ['/api/v1/idps', () => '/api/v1/idps?limit=200'],
  ['/api/v1/mappings', () => '/api/v1/mappings?limit=200'],
  ['/api/v1/mappings/{mappingId}', (i) => `/api/v1/mappings/${i.mapping}`],
  ['/api/v1/eventHooks', () => '/api/v1/eventHooks'],
  ['/api/v1/inlineHooks', () => '/api/v1/inlineHooks'],
  ['/api/v1/brands', () => '/api/v1/brands?limit=200'],
  ['/api/v1/brands/{brandId}/themes', (i) => `/api/v1/brands/${i.brand}/themes`],
  [
    '/api/v1/brands/{brandId}/templates/email',
    (i) => `/api/v1/brands/${i.brand}/templates/email?limit=200&expand=settings,customizationCount`,
  ],
  [
    '/api/v1/brands/{brandId}/templates/email/{templateName}/customizations',
    (i) => `/api/v1/brands/${i.brand}/templates/email/ForgotPassword/customizations`,
  ],
  [
    '/api/v1/brands/{brandId}/pages/sign-in/customized',
    (i) => `/api/v1/brands/${i.brand}/pages/sign-in/customized`,
  ],
  [
    '/api/v1/brands/{brandId}/pages/sign-out/customized',
    (i) => `/api/v1/brands/${i.brand}/pages/sign-out/customized`,
  ],
  [
    '/api/v1/brands/{brandId}/pages/error/customized',
    (i) => `/api/v1/brands/${i.partnerBrand}/pages/error/customized`,
  ],
  ['/api/v1/domains', () => '/api/v1/domains'],
  ['/api/v1/iam/roles', () => '/api/v1/iam/roles'],
  ['/api/v1/iam/roles/{roleIdOrLabel}/permissions', (i) => `/api/v1/iam/roles/${i.customRole}/permissions`],
  ['/api/v1/iam/resource-sets', () => '/api/v1/iam/resource-sets'],
  [
    '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/resources',
    (i) => `/api/v1/iam/resource-sets/${i.resourceSet}/resources`,
  ],
  [
    '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/bindings',
    (i) => `/api/v1/iam/resource-sets/${i.resourceSet}/bindings`,
  ],
  [
    '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/bindings/{roleIdOrLabel}/members',
    (i) => `/api/v1/iam/resource-sets/${i.resourceSet}/bindings/${i.boundRole}/members`,
  ],
  ['/api/v1/iam/assignees/users', () => '/api/v1/iam/assignees/users'],
  ['/api/v1/users/{userId}/roles', (i) => `/api/v1/users/${i.admin}/roles`],
  ['/api/v1/groups/{groupId}/roles', (i) => `/api/v1/groups/${i.adminGroup}/roles`],
  [
    '/api/v1/users/{userId}/roles/{roleAssignmentId}/targets/groups',
    (i) => `/api/v1/users/${i.groupTargetsOfUser}/targets/groups?limit=200`,
  ],
  [
    '/api/v1/groups/{groupId}/roles/{roleAssignmentId}/targets/groups',
    (i) => `/api/v1/groups/${i.groupTargetsOfGroup}/targets/groups`,
  ],
  [
    '/api/v1/users/{userId}/roles/{roleAssignmentId}/targets/catalog/apps',
    (i) => `/api/v1/users/${i.appTargets}/targets/catalog/apps?limit=200`,
  ],
  ['/api/v1/logs', () => '/api/v1/logs?since=2020-01-01T00:00:00Z&limit=1000'],
];

(file ? describe : describe.skip)('responses conform to Okta OpenAPI description', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;
  let validator: OpenApiValidator;
  const ids: Ids = {};

  beforeAll(async () => {
    [sut, validator] = await Promise.all([
      startSimulator({ users: 120, groups: 12, apps: 5, seed: 5 }),
      OpenApiValidator.load(file as string),
    ]);
    client = new SimulatorClient(sut);
    const snapshot = sut.snapshot();
    const child = (id: string) => id.split(':').pop() as string;
    const [server] = snapshot.authorization_server;
    const serverRule = snapshot.authorization_server_policy_rule[0].id.split(':');
    // `<ownerId>/roles/<assignmentId>` of the first assignment of the role type that has targets.
    const targetsOf = (roleType: string) =>
      snapshot.admin_role_target
        .find((t) => t.data.roleType === roleType)
        ?.id.split(':')
        .slice(0, 2)
        .join('/roles/') ?? '';
    Object.assign(ids, {
      user: snapshot.user[0].id,
      group: snapshot.group[1].id,
      groupRule: snapshot.group_rule[0].id,
      app: snapshot.app[0].id,
      appUser: child(snapshot.app_user_assignment.find((a) => a.id.startsWith(snapshot.app[0].id))?.id ?? ''),
      appGroup: child(
        snapshot.app_group_assignment.find((a) => a.id.startsWith(snapshot.app[0].id))?.id ?? '',
      ),
      policy: snapshot.policy[0].id,
      policyRule: child(snapshot.policy_rule[0].id),
      server: server.id,
      scope: child(snapshot.authorization_server_scope[0].id),
      claim: child(snapshot.authorization_server_claim[0].id),
      serverPolicy: serverRule[1],
      serverRule: serverRule[2],
      zone: snapshot.network_zone[0].id,
      origin: snapshot.trusted_origin[0].id,
      ownedGroup: snapshot.group_owner[0].id.split(':')[0],
      userType: snapshot.user_type[1].id,
      samlApp: snapshot.app.find((a) => a.data.signOnMode === 'SAML_2_0')?.id ?? '',
      oidcApp: snapshot.app.find((a) => a.data.signOnMode === 'OPENID_CONNECT')?.id ?? '',
      mapping: snapshot.profile_mapping[0].id,
      brand: snapshot.brand[0].id,
      partnerBrand: snapshot.brand[1].id,
      customRole: snapshot.custom_admin_role[0].id,
      resourceSet: snapshot.resource_set[0].id,
      boundRole: snapshot.resource_set_binding[0].id.split(':')[1],
      admin: snapshot.admin_role_assignment.find((r) => r.id.startsWith('00u'))?.id.split(':')[0] ?? '',
      adminGroup: snapshot.admin_role_assignment.find((r) => r.id.startsWith('00g'))?.id.split(':')[0] ?? '',
      groupTargetsOfUser: targetsOf('HELP_DESK_ADMIN'),
      groupTargetsOfGroup: targetsOf('USER_ADMIN'),
      appTargets: targetsOf('APP_ADMIN'),
    });
    // A few writes, so that the System Log has events of each kind to validate.
    const group = await client.call('POST', '/api/v1/groups', {
      json: { profile: { name: 'Audited group' } },
    });
    const groupId = (group.body as { id: string }).id;
    await client.call('PUT', `/api/v1/groups/${groupId}/users/${ids.user}`);
    await client.call('DELETE', `/api/v1/groups/${groupId}/users/${ids.user}`);
    await client.call('DELETE', `/api/v1/groups/${groupId}`);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await sut?.close();
  });

  it.each(CALLS)('GET %s', async (path, url, status = 200) => {
    const response = await client.call('GET', url(ids));
    expect(response.status).toBe(status);
    expect(validator.validate(path, 'GET', status, response.body)).toEqual([]);
  });

  it('every object of each type served is valid on its own (all users, all policy types and rules)', async () => {
    const snapshot = sut.snapshot();
    const errors = [
      ...snapshot.user.flatMap((u) => validator.validate('/api/v1/users', 'GET', 200, [u.data])),
      ...snapshot.app.flatMap((a) => validator.validate('/api/v1/apps', 'GET', 200, [a.data])),
      ...snapshot.policy.flatMap((p) => validator.validate('/api/v1/policies', 'GET', 200, [p.data])),
      ...snapshot.policy_rule.flatMap((r) =>
        validator.validate('/api/v1/policies/{policyId}/rules', 'GET', 200, [r.data]),
      ),
      ...snapshot.network_zone.flatMap((z) => validator.validate('/api/v1/zones', 'GET', 200, [z.data])),
    ];
    expect(errors).toEqual([]);
  });

  it('every object of the types around the directory is valid on its own', async () => {
    const snapshot = sut.snapshot();
    const served = async (url: string) => (await client.call('GET', url)).body;
    const each = (path: string, records: Array<{ data: unknown }>) =>
      records.flatMap((r) => validator.validate(path, 'GET', 200, [r.data]));
    const one = (path: string, records: Array<{ data: unknown }>) =>
      records.flatMap((r) => validator.validate(path, 'GET', 200, r.data));
    const errors = [
      ...each('/api/v1/meta/types/user', snapshot.user_type),
      ...one('/api/v1/meta/schemas/user/{schemaId}', snapshot.user_schema),
      ...one('/api/v1/meta/schemas/apps/{appId}/default', snapshot.app_user_schema),
      ...each('/api/v1/authenticators', snapshot.authenticator),
      ...each('/api/v1/behaviors', snapshot.behavior),
      ...each('/api/v1/idps', snapshot.identity_provider),
      ...one('/api/v1/mappings/{mappingId}', snapshot.profile_mapping),
      ...each('/api/v1/eventHooks', snapshot.event_hook),
      ...each('/api/v1/inlineHooks', snapshot.inline_hook),
      ...each('/api/v1/brands', snapshot.brand),
      ...each(
        '/api/v1/brands/{brandId}/templates/email/{templateName}/customizations',
        snapshot.email_customization,
      ),
      ...each('/api/v1/users/{userId}/roles', snapshot.admin_role_assignment),
      ...validator.validate('/api/v1/domains', 'GET', 200, await served('/api/v1/domains')),
    ];
    expect(errors).toEqual([]);
  });

  it.each([
    ['/api/v1/meta/types/user', 200, { name: 'vendor', displayName: 'Vendor', description: 'Vendors' }],
    ['/api/v1/idps', 200, { name: 'Acme', type: 'OIDC', protocol: { type: 'OIDC', scopes: ['openid'] } }],
    [
      '/api/v1/eventHooks',
      200,
      {
        name: 'Feed',
        events: { type: 'EVENT_TYPE', items: ['user.lifecycle.create'] },
        channel: { type: 'HTTP', version: '1.0.0', config: { uri: 'https://hooks.example.com/f' } },
      },
    ],
    ['/api/v1/behaviors', 200, { name: 'Fast', type: 'VELOCITY', settings: { velocityKph: 900 } }],
    ['/api/v1/brands', 201, { name: 'Another brand' }],
    [
      '/api/v1/iam/roles',
      200,
      { label: 'Reader', description: 'Reads users', permissions: ['okta.users.read'] },
    ],
  ])('creates at POST %s as the description says (%d)', async (path, status, json) => {
    const response = await client.call('POST', path, { json });
    expect(response.status).toBe(status);
    expect(validator.validate(path, 'POST', status, response.body)).toEqual([]);
  });

  it('assigns a role to a user as the description says (201)', async () => {
    const path = '/api/v1/users/{userId}/roles';
    const response = await client.call('POST', `/api/v1/users/${ids.user}/roles`, {
      json: { type: 'REPORT_ADMIN' },
    });
    expect(response.status).toBe(201);
    expect(validator.validate(path, 'POST', 201, response.body)).toEqual([]);
  });

  it('installs an API service integration as the description says (201)', async () => {
    const response = await client.call('POST', '/integrations/api/v1/api-services', {
      json: { type: 'idp_backup', grantedScopes: ['okta.users.read'] },
    });
    expect(response.status).toBe(201);
    expect(validator.validate('/integrations/api/v1/api-services', 'POST', 201, response.body)).toEqual([]);
  });
});
