import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { graphCall } from './testing/graph-client.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The policy writes a restore makes (policy-writes.routes.ts), as a client makes them over HTTPS. */
describe('Entra simulator: policy writes', () => {
  let sim: RunningEntraSimulator;
  const call = (roles: string[], method: Method, path: string, body?: unknown) =>
    graphCall(sim, roles, method, path, body);
  const CA = ['Policy.ReadWrite.ConditionalAccess', 'Policy.Read.All'];

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 6, groups: 2, seed: 7 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('creates, updates and deletes a named location, the update carrying its @odata.type', async () => {
    const body = {
      '@odata.type': '#microsoft.graph.ipNamedLocation',
      displayName: 'Branch office',
      isTrusted: false,
      ipRanges: [{ '@odata.type': '#microsoft.graph.iPv4CidrRange', cidrAddress: '198.51.100.0/24' }],
    };
    expect(
      (await call(['Policy.Read.All'], 'POST', '/identity/conditionalAccess/namedLocations', body)).status,
    ).toBe(403);
    const created = await call(CA, 'POST', '/identity/conditionalAccess/namedLocations', body);
    expect(created).toMatchObject({ status: 201, body: { ...body, id: expect.any(String) } });
    const path = `/identity/conditionalAccess/namedLocations/${String(created.body.id)}`;
    expect((await call(CA, 'PATCH', path, { isTrusted: true })).status).toBe(400);
    expect(
      (await call(CA, 'PATCH', path, { '@odata.type': body['@odata.type'], isTrusted: true })).status,
    ).toBe(204);
    expect((await call(CA, 'GET', path)).body).toMatchObject({
      isTrusted: true,
      displayName: 'Branch office',
    });
    expect((await call(CA, 'DELETE', path)).status).toBe(204);
    expect((await call(CA, 'GET', path)).status).toBe(404);
  });

  it('stores a created conditional access policy as Graph answers it, and deletes it with Policy.Read.All too', async () => {
    const created = await call(CA, 'POST', '/identity/conditionalAccess/policies', {
      displayName: 'Phishing-resistant MFA for admins',
      state: 'enabledForReportingButNotEnforced',
      conditions: {
        clientAppTypes: ['all'],
        applications: { includeApplications: ['All'] },
        users: { includeRoles: ['62e90394-69f5-4237-9190-012177145e10'] },
      },
      grantControls: { authenticationStrength: { id: '00000000-0000-0000-0000-000000000004' } },
    });
    expect(created.status).toBe(201);
    const path = `/identity/conditionalAccess/policies/${String(created.body.id)}`;
    const read = (await call(CA, 'GET', path)).body;
    expect(read).toMatchObject({
      createdDateTime: expect.any(String),
      sessionControls: null,
      conditions: {
        userRiskLevels: [],
        locations: null,
        users: { includeRoles: ['62e90394-69f5-4237-9190-012177145e10'], excludeUsers: [] },
      },
      grantControls: {
        operator: 'OR',
        builtInControls: [],
        authenticationStrength: {
          id: '00000000-0000-0000-0000-000000000004',
          displayName: 'Phishing-resistant MFA',
          allowedCombinations: expect.arrayContaining(['fido2']),
        },
      },
    });
    expect((await call(CA, 'PATCH', path, { state: 'enabled' })).status).toBe(204);
    // "Update conditionalAccessPolicy": members left out keep their values, in conditions too
    expect((await call(CA, 'PATCH', path, { conditions: { signInRiskLevels: ['high'] } })).status).toBe(204);
    expect((await call(CA, 'GET', path)).body).toMatchObject({
      conditions: {
        signInRiskLevels: ['high'],
        applications: { includeApplications: ['All'] },
        users: { includeRoles: ['62e90394-69f5-4237-9190-012177145e10'] },
      },
    });
    expect((await call(CA, 'GET', path)).body).toMatchObject({
      state: 'enabled',
      grantControls: { operator: 'OR' },
    });
    const unknownStrength = { grantControls: { authenticationStrength: { id: 'nope' } } };
    expect((await call(CA, 'PATCH', path, unknownStrength)).status).toBe(400);
    expect((await call(['Policy.ReadWrite.ConditionalAccess'], 'DELETE', path)).status).toBe(403);
    expect((await call(CA, 'DELETE', path)).status).toBe(204);
    expect((await call(CA, 'GET', path)).status).toBe(404);
  });

  it('refuses applications the conditional access deleted items, as their pages say (application: not supported)', async () => {
    const [policy] = sim.snapshot().conditional_access_policy;
    for (const [method, path] of [
      ['GET', '/identity/conditionalAccess/deletedItems/policies'],
      ['GET', '/identity/conditionalAccess/deletedItems/namedLocations'],
      ['POST', `/identity/conditionalAccess/deletedItems/policies/${policy.id}/restore`],
    ] as const)
      expect(await call(CA, method, path)).toMatchObject({
        status: 403,
        body: { error: { code: 'Authorization_RequestDenied' } },
      });
  });

  it('writes custom authentication strengths, their combinations only through updateAllowedCombinations', async () => {
    const base = '/policies/authenticationStrengthPolicies';
    const created = await call(CA, 'POST', base, {
      displayName: 'Keys only',
      allowedCombinations: ['fido2'],
    });
    expect(created).toMatchObject({
      status: 201,
      body: { policyType: 'custom', requirementsSatisfied: 'mfa' },
    });
    const path = `${base}/${String(created.body.id)}`;
    expect((await call(CA, 'PATCH', path, { allowedCombinations: ['sms'] })).status).toBe(400);
    expect((await call(CA, 'PATCH', path, { description: 'FIDO2 keys' })).status).toBe(204);
    const updated = await call(CA, 'POST', `${path}/updateAllowedCombinations`, {
      allowedCombinations: ['fido2', 'windowsHelloForBusiness'],
    });
    expect(updated).toMatchObject({ status: 200, body: { previousCombinations: ['fido2'] } });
    expect((await call(CA, 'GET', path)).body).toMatchObject({
      description: 'FIDO2 keys',
      allowedCombinations: ['fido2', 'windowsHelloForBusiness'],
    });
    const builtIn = `${base}/00000000-0000-0000-0000-000000000002`;
    expect((await call(CA, 'PATCH', builtIn, { description: 'x' })).status).toBe(400);
    expect((await call(CA, 'DELETE', builtIn)).status).toBe(400);
  });

  it('updates the singletons with the permission of each update page', async () => {
    const writes: Array<[string[], Method, string, Record<string, unknown>, Record<string, unknown>]> = [
      [
        ['Policy.ReadWrite.Authorization'],
        'PATCH',
        '/policies/authorizationPolicy',
        { allowInvitesFrom: 'adminsAndGuestInviters' },
        { allowInvitesFrom: 'adminsAndGuestInviters' },
      ],
      [
        ['Policy.ReadWrite.SecurityDefaults'],
        'PATCH',
        '/policies/identitySecurityDefaultsEnforcementPolicy',
        { isEnabled: true },
        { isEnabled: true },
      ],
      [
        ['Policy.ReadWrite.CrossTenantAccess'],
        'PATCH',
        '/policies/crossTenantAccessPolicy/default',
        { inboundTrust: { isMfaAccepted: true } },
        { inboundTrust: { isMfaAccepted: true }, isServiceDefault: false },
      ],
      [
        ['Policy.ReadWrite.CrossTenantAccess'],
        'PATCH',
        '/policies/crossTenantAccessPolicy',
        { displayName: 'Cross-tenant' },
        { displayName: 'Cross-tenant' },
      ],
    ];
    for (const [roles, method, path, body, expected] of writes) {
      expect((await call(['Policy.Read.All'], method, path, body)).status).toBe(403);
      expect((await call(roles, method, path, body)).status).toBe(204);
      expect((await call(['Policy.Read.All'], 'GET', path)).body).toMatchObject(expected);
    }
    const consent = '/policies/adminConsentRequestPolicy';
    const before = (await call(['Policy.Read.All'], 'GET', consent)).body;
    const roles = ['Policy.ReadWrite.ConsentRequest'];
    expect((await call(roles, 'PATCH', consent, { isEnabled: false })).status).toBe(405);
    const { version: _version, '@odata.context': _context, ...rest } = before;
    expect((await call(roles, 'PUT' as Method, consent, { isEnabled: false })).status).toBe(400);
    expect((await call(roles, 'PUT' as Method, consent, { ...rest, isEnabled: false })).status).toBe(204);
    expect((await call(['Policy.Read.All'], 'GET', consent)).body).toMatchObject({
      isEnabled: false,
      version: Number(before.version) + 1,
    });
  });

  it('updates one authentication method configuration, not through the methods policy', async () => {
    const method = ['Policy.ReadWrite.AuthenticationMethod'];
    const policy = (await call(method, 'GET', '/policies/authenticationMethodsPolicy')).body;
    const [configuration] = policy.authenticationMethodConfigurations as Array<Record<string, unknown>>;
    const path = `/policies/authenticationMethodsPolicy/authenticationMethodConfigurations/${String(configuration.id)}`;
    const state = configuration.state === 'enabled' ? 'disabled' : 'enabled';
    expect(
      (await call(method, 'PATCH', path, { '@odata.type': configuration['@odata.type'], state })).status,
    ).toBe(204);
    expect((await call(method, 'GET', path)).body).toMatchObject({ id: configuration.id, state });
    const nested = { authenticationMethodConfigurations: [] };
    expect((await call(method, 'PATCH', '/policies/authenticationMethodsPolicy', nested)).status).toBe(400);
    expect(
      (
        await call(method, 'PATCH', '/policies/authenticationMethodsPolicy', {
          description: 'Tenant methods',
        })
      ).status,
    ).toBe(204);
  });

  it('creates, updates and deletes the other policies, a partner by its tenant id', async () => {
    const cases: Array<[string[], string, Record<string, unknown>, Record<string, unknown>, string?]> = [
      [
        ['Policy.ReadWrite.ApplicationConfiguration'],
        '/policies/tokenLifetimePolicies',
        { displayName: 'One hour', definition: ['{"TokenLifetimePolicy":{"Version":1}}'] },
        { displayName: 'One hour (renamed)' },
      ],
      [
        ['Policy.ReadWrite.ApplicationConfiguration'],
        '/policies/claimsMappingPolicies',
        { displayName: 'Claims', definition: ['{}'] },
        { definition: ['{"ClaimsMappingPolicy":{}}'] },
      ],
      [
        ['Policy.ReadWrite.PermissionGrant'],
        '/policies/permissionGrantPolicies',
        { id: 'my-low-risk', displayName: 'Low risk' },
        { description: 'Low-risk apps' },
        'my-low-risk',
      ],
      [
        ['GroupSettings.ReadWrite.All'],
        '/groupSettings',
        { templateId: '08d542b9-071f-4e16-94b0-74abb372e3d9', values: [{ name: 'x', value: 'y' }] },
        { values: [{ name: 'x', value: 'z' }] },
      ],
      [
        ['Policy.ReadWrite.CrossTenantAccess'],
        '/policies/crossTenantAccessPolicy/partners',
        { tenantId: '3d0f5dbb-0000-4000-a000-000000000001', inboundTrust: { isMfaAccepted: true } },
        { inboundTrust: { isMfaAccepted: false } },
        '3d0f5dbb-0000-4000-a000-000000000001',
      ],
    ];
    for (const [roles, base, body, change, key] of cases) {
      expect((await call(['Policy.Read.All'], 'POST', base, body)).status).toBe(403);
      const created = await call(roles, 'POST', base, body);
      expect(created).toMatchObject({ status: 201, body });
      const path = `${base}/${key ?? String(created.body.id)}`;
      expect((await call(roles, 'PATCH', path, change)).status).toBe(204);
      const read = await call([...roles, 'Policy.Read.All', 'GroupSettings.Read.All'], 'GET', path);
      expect(read.body).toMatchObject(change);
      expect((await call(roles, 'DELETE', path)).status).toBe(204);
      expect((await call(roles, 'DELETE', path)).status).toBe(404);
    }
    const lifecycle = { groupLifetimeInDays: 90, managedGroupTypes: 'All' };
    expect(
      (await call(['Directory.ReadWrite.All'], 'POST', '/groupLifecyclePolicies', lifecycle)).status,
    ).toBe(400);
  });

  it("adds and removes a permission grant policy's condition sets through their own paths only", async () => {
    const roles = ['Policy.ReadWrite.PermissionGrant'];
    const base = '/policies/permissionGrantPolicies';
    const set = { permissionType: 'delegated', clientApplicationIds: ['all'], permissions: ['all'] };
    expect(
      (await call(roles, 'POST', base, { id: 'with-sets', displayName: 'x', includes: [set] })).status,
    ).toBe(400);
    expect((await call(roles, 'POST', base, { id: 'with-sets', displayName: 'x' })).status).toBe(201);
    const added = await call(roles, 'POST', `${base}/with-sets/includes`, set);
    expect(added).toMatchObject({ status: 201, body: { ...set, id: expect.any(String) } });
    expect((await call(roles, 'PATCH', `${base}/with-sets`, { excludes: [] })).status).toBe(400);
    expect((await call(roles, 'GET', `${base}/with-sets`)).body).toMatchObject({
      includes: [set],
      excludes: [],
    });
    expect((await call(roles, 'DELETE', `${base}/with-sets/includes/${String(added.body.id)}`)).status).toBe(
      204,
    );
    expect((await call(roles, 'GET', `${base}/with-sets`)).body).toMatchObject({ includes: [] });
    expect((await call(roles, 'POST', `${base}/microsoft-user-default-low/excludes`, set)).status).toBe(400);
  });

  it("updates the organization's writable properties and its branding, re-created after a delete", async () => {
    const path = `/organization/${sim.tenantId}`;
    const roles = ['Organization.ReadWrite.All'];
    const mails = { technicalNotificationMails: ['it@contoso.com'] };
    expect((await call(roles, 'PATCH', path, mails)).status).toBe(204);
    expect((await call(roles, 'GET', path)).body).toMatchObject(mails);
    expect((await call(roles, 'PATCH', path, { displayName: 'Renamed' })).status).toBe(400);
    const branding = `${path}/branding`;
    const brandingRoles = ['OrganizationalBranding.ReadWrite.All'];
    expect((await call(brandingRoles, 'DELETE', branding)).status).toBe(204);
    expect((await call(brandingRoles, 'PATCH', branding, { signInPageText: 'Welcome' })).status).toBe(204);
    expect((await call(brandingRoles, 'GET', branding)).body).toMatchObject({
      id: '0',
      signInPageText: 'Welcome',
    });
  });
});
