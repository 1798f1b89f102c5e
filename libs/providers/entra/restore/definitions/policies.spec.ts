import { describe, expect, it } from '@jest/globals';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';

const FIXTURE = scubaGearFile();

/** How a spec breaks one object in the tenant, as an admin's tool would (the app granted `roles`). */
interface Breakage {
  type: EntraResourceType;
  roles: string[];
  /** which backed-up record to break (default: the first) */
  pick?: (record: ResourceRecord) => boolean;
  /** the object is deleted (else changed) */
  deletes?: true;
  /** the change (PATCH, or PUT for the consent request policy) or the deletion */
  change: (record: ResourceRecord) => { method: 'PATCH' | 'DELETE' | 'PUT'; path: string; body?: unknown };
}

const APPLICATION_POLICIES = ['Policy.ReadWrite.ApplicationConfiguration'];
const CROSS_TENANT = ['Policy.ReadWrite.CrossTenantAccess'];
const deleted = (path: string) => ({ method: 'DELETE' as const, path });

/**
 * Each type's object changed or deleted in the tenant (the singletons changed: they cannot be
 * deleted), then written back from its backup record through the restorer.
 */
const BREAKAGES: Breakage[] = [
  {
    type: 'authorization_policy',
    roles: ['Policy.ReadWrite.Authorization'],
    change: () => ({
      method: 'PATCH',
      path: '/policies/authorizationPolicy',
      body: { allowInvitesFrom: 'none' },
    }),
  },
  {
    type: 'authentication_methods_policy',
    roles: ['Policy.ReadWrite.AuthenticationMethod'],
    change: () => ({
      method: 'PATCH',
      path: '/policies/authenticationMethodsPolicy',
      body: { policyMigrationState: 'migrationComplete' },
    }),
  },
  {
    type: 'authentication_method_configuration',
    roles: ['Policy.ReadWrite.AuthenticationMethod'],
    pick: (record) => record.id === 'Fido2',
    change: (record) => ({
      method: 'PATCH',
      path: '/policies/authenticationMethodsPolicy/authenticationMethodConfigurations/Fido2',
      body: {
        '@odata.type': record.data['@odata.type'],
        state: record.data.state === 'enabled' ? 'disabled' : 'enabled',
      },
    }),
  },
  {
    type: 'identity_security_defaults_enforcement_policy',
    roles: ['Policy.ReadWrite.SecurityDefaults'],
    change: (record) => ({
      method: 'PATCH',
      path: '/policies/identitySecurityDefaultsEnforcementPolicy',
      body: { isEnabled: !record.data.isEnabled },
    }),
  },
  {
    type: 'admin_consent_request_policy',
    roles: ['Policy.ReadWrite.ConsentRequest'],
    change: (record) => ({
      method: 'PUT',
      path: '/policies/adminConsentRequestPolicy',
      body: {
        isEnabled: !record.data.isEnabled,
        notifyReviewers: false,
        remindersEnabled: false,
        requestDurationInDays: 7,
        reviewers: [],
      },
    }),
  },
  ...(
    [
      ['token_lifetime_policy', 'tokenLifetimePolicies'],
      ['token_issuance_policy', 'tokenIssuancePolicies'],
      ['claims_mapping_policy', 'claimsMappingPolicies'],
      ['home_realm_discovery_policy', 'homeRealmDiscoveryPolicies'],
    ] as const
  ).flatMap(([type, segment]): Breakage[] => [
    {
      type,
      roles: APPLICATION_POLICIES,
      change: (record) => ({
        method: 'PATCH',
        path: `/policies/${segment}/${record.id}`,
        body: { definition: ['{}'] },
      }),
    },
    {
      type,
      roles: APPLICATION_POLICIES,
      deletes: true,
      change: (record) => deleted(`/policies/${segment}/${record.id}`),
    },
  ]),
  {
    type: 'cross_tenant_access_policy',
    roles: CROSS_TENANT,
    change: () => ({
      method: 'PATCH',
      path: '/policies/crossTenantAccessPolicy',
      body: { allowedCloudEndpoints: ['microsoftonline.us'] },
    }),
  },
  {
    type: 'cross_tenant_access_policy_configuration_default',
    roles: CROSS_TENANT,
    change: () => ({
      method: 'PATCH',
      path: '/policies/crossTenantAccessPolicy/default',
      body: { inboundTrust: { isMfaAccepted: true, isCompliantDeviceAccepted: true } },
    }),
  },
  {
    type: 'cross_tenant_access_policy_configuration_partner',
    roles: CROSS_TENANT,
    change: (record) => ({
      method: 'PATCH',
      path: `/policies/crossTenantAccessPolicy/partners/${record.id}`,
      body: { inboundTrust: null },
    }),
  },
  {
    type: 'cross_tenant_access_policy_configuration_partner',
    roles: CROSS_TENANT,
    deletes: true,
    change: (record) => deleted(`/policies/crossTenantAccessPolicy/partners/${record.id}`),
  },
  {
    type: 'group_setting',
    roles: ['GroupSettings.ReadWrite.All'],
    deletes: true,
    change: (record) => deleted(`/groupSettings/${record.id}`),
  },
  {
    type: 'group_lifecycle_policy',
    roles: ['Directory.ReadWrite.All'],
    change: (record) => ({
      method: 'PATCH',
      path: `/groupLifecyclePolicies/${record.id}`,
      body: { groupLifetimeInDays: 30 },
    }),
  },
  {
    type: 'group_lifecycle_policy',
    roles: ['Directory.ReadWrite.All'],
    deletes: true,
    change: (record) => deleted(`/groupLifecyclePolicies/${record.id}`),
  },
  {
    type: 'organization',
    roles: ['Organization.ReadWrite.All'],
    change: (record) => ({
      method: 'PATCH',
      path: `/organization/${record.id}`,
      body: { technicalNotificationMails: ['someone-else@example.com'] },
    }),
  },
  {
    type: 'organizational_branding',
    roles: ['OrganizationalBranding.ReadWrite.All'],
    change: (record) => ({
      method: 'PATCH',
      path: `/organization/${record.id.split(':')[0]}/branding`,
      body: { signInPageText: 'Changed' },
    }),
  },
  {
    type: 'organizational_branding',
    roles: ['OrganizationalBranding.ReadWrite.All'],
    deletes: true,
    change: (record) => deleted(`/organization/${record.id.split(':')[0]}/branding`),
  },
];

/** Restore writes of the tenant's other policies and the tenant itself, against the simulator over HTTPS. */
(FIXTURE ? describe : describe.skip)('policy and tenant restore definitions (simulator over HTTPS)', () => {
  let tenant: RestoreTestTenant;
  let sut: ProviderRestorer;

  useRestoreTestTenant(
    { scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 6, groups: 2, seed: 32 },
    (t) => {
      tenant = t;
      sut = t.restorer();
    },
  );

  /** The live record a write left for `backedUp`: by the write's id, else by natural key. */
  async function liveAfter(backedUp: ResourceRecord, id: string) {
    const live = await tenant.records(backedUp.type as EntraResourceType);
    const key = sut.naturalKey(backedUp);
    return (
      live.find((record) => record.id === id) ??
      live.find((record) => key !== null && sut.naturalKey(record) === key)
    );
  }

  for (const breakage of BREAKAGES)
    it(`${breakage.type}: ${breakage.deletes ? 'deleted' : 'changed'}, then written back equal by fingerprint`, async () => {
      const records = await tenant.records(breakage.type);
      const backedUp = records.find(breakage.pick ?? (() => true))!;
      expect(backedUp).toBeDefined();
      const { method, path, body } = breakage.change(backedUp);
      const answer = await tenant.call(breakage.roles, method as 'PATCH', path, body);
      expect(answer.status).toBeLessThan(300);
      const broken = (await tenant.records(breakage.type)).find((record) => record.id === backedUp.id);
      if (broken) expect(sut.fingerprint(broken)).not.toBe(sut.fingerprint(backedUp));

      const result = await tenant.restore(sut, backedUp);

      expect(result).not.toBeNull();
      const live = await liveAfter(backedUp, result!.id);
      expect(live).toBeDefined();
      expect(sut.fingerprint(live!)).toBe(sut.fingerprint(backedUp));
    });

  it('puts back a custom permission grant policy and its condition sets, re-created under its own id, and never writes a built-in one', async () => {
    const roles = ['Policy.ReadWrite.PermissionGrant'];
    const path = '/policies/permissionGrantPolicies/contoso-low-risk';
    await tenant.call(roles, 'POST', '/policies/permissionGrantPolicies', {
      id: 'contoso-low-risk',
      displayName: 'Contoso low risk',
      description: 'Verified publishers only',
    });
    const verified = { permissionType: 'delegated', clientApplicationsFromVerifiedPublisherOnly: true };
    const graph = {
      permissionType: 'delegated',
      resourceApplication: '00000003-0000-0000-c000-000000000000',
    };
    await tenant.call(roles, 'POST', `${path}/includes`, verified);
    const excluded = await tenant.call(roles, 'POST', `${path}/excludes`, graph);
    const policies = await tenant.records('permission_grant_policy');
    const custom = policies.find((p) => p.id === 'contoso-low-risk')!;
    const builtIn = policies.find((p) => p.id.startsWith('microsoft-'))!;

    await tenant.call(roles, 'DELETE', `${path}/excludes/${String(excluded.body.id)}`);
    await tenant.call(roles, 'POST', `${path}/includes`, graph);
    expect(await tenant.restore(sut, custom)).toMatchObject({ id: 'contoso-low-risk' });
    expect(sut.fingerprint((await liveAfter(custom, custom.id))!)).toBe(sut.fingerprint(custom));

    await tenant.call(roles, 'DELETE', path);
    expect(await tenant.restore(sut, custom)).toMatchObject({ id: 'contoso-low-risk' });
    const recreated = (await liveAfter(custom, custom.id))!;
    expect(recreated.data).toMatchObject({ includes: [verified], excludes: [graph] });
    expect(sut.fingerprint(recreated)).toBe(sut.fingerprint(custom));
    expect(sut.managedBecause(builtIn)).toMatch(/built-in/);
  });

  it('writes no domain, and says how one comes back', () => {
    expect(sut.support('domain')).toMatchObject({ create: false, update: false, delete: false });
    expect(sut.support('domain').notes.join(' ')).toMatch(/verified through DNS/);
    expect(sut.support('authorization_policy')).toMatchObject({ create: false, update: true, delete: false });
  });
});
