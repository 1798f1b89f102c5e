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
    });
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

  it('installs an API service integration as the description says (201)', async () => {
    const response = await client.call('POST', '/integrations/api/v1/api-services', {
      json: { type: 'idp_backup', grantedScopes: ['okta.users.read'] },
    });
    expect(response.status).toBe(201);
    expect(validator.validate('/integrations/api/v1/api-services', 'POST', 201, response.body)).toEqual([]);
  });
});
