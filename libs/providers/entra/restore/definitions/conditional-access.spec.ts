import { describe, expect, it } from '@jest/globals';
import { graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { GLOBAL_ADMINISTRATOR_ROLE } from '@libs/providers/entra/restore/lockout-check.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';

const FIXTURE = scubaGearFile();
const CA = ['Policy.ReadWrite.ConditionalAccess', 'Policy.Read.All'];
const POLICIES = '/identity/conditionalAccess/policies';

/**
 * Restore writes of named locations, authentication strengths and conditional access policies
 * against the simulator seeded from the real tenant, over HTTPS: each object changed or deleted
 * in the tenant, its backup record written back through the restorer, read back equal by
 * fingerprint.
 */
(FIXTURE ? describe : describe.skip)('conditional access restore definitions (simulator over HTTPS)', () => {
  let tenant: RestoreTestTenant;
  let sut: ProviderRestorer;

  useRestoreTestTenant(
    { scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 8, groups: 2, seed: 31 },
    (t) => {
      tenant = t;
      sut = t.restorer();
    },
  );

  /** The live record the restore left for `backedUp` (created ones found by natural key). */
  const restored = async (backedUp: ResourceRecord, id = backedUp.id) =>
    (await tenant.record(backedUp.type as never, id))!;

  it('puts back a changed named location and re-creates a deleted one, equal by fingerprint', async () => {
    const [ip, country] = await tenant.records('named_location');
    await tenant.call(CA, 'PATCH', `/identity/conditionalAccess/namedLocations/${ip.id}`, {
      '@odata.type': ip.data['@odata.type'],
      isTrusted: !ip.data.isTrusted,
      displayName: `${String(ip.data.displayName)} (changed)`,
    });
    await tenant.call(CA, 'DELETE', `/identity/conditionalAccess/namedLocations/${country.id}`);

    expect(await tenant.restore(sut, ip)).toMatchObject({ id: ip.id });
    const created = (await tenant.restore(sut, country))!;

    expect(sut.fingerprint(await restored(ip))).toBe(sut.fingerprint(ip));
    expect(created.id).not.toBe(country.id);
    expect(sut.fingerprint(await restored(country, created.id))).toBe(sut.fingerprint(country));
  });

  it('writes a custom authentication strength back, its combinations through updateAllowedCombinations', async () => {
    const strengths = await tenant.records('authentication_strength_policy');
    const custom = strengths.find((s) => s.data.policyType === 'custom')!;
    const path = `/policies/authenticationStrengthPolicies/${custom.id}`;
    await tenant.call(CA, 'PATCH', path, { description: 'changed' });
    await tenant.call(CA, 'POST', `${path}/updateAllowedCombinations`, { allowedCombinations: ['sms'] });

    await tenant.restore(sut, custom);
    expect(sut.fingerprint(await restored(custom))).toBe(sut.fingerprint(custom));

    await tenant.call(CA, 'DELETE', path);
    const created = (await tenant.restore(sut, custom))!;
    expect(sut.fingerprint(await restored(custom, created.id))).toBe(sut.fingerprint(custom));
    const builtIn = strengths.find((s) => s.data.policyType === 'builtIn')!;
    expect(sut.managedBecause(builtIn)).toMatch(/built-in/);
  });

  it("re-creates each of the real tenant's deleted policies from its backup record, equal by fingerprint", async () => {
    const policies = await tenant.records('conditional_access_policy');
    expect(policies).toHaveLength(7);
    for (const policy of policies) await tenant.call(CA, 'DELETE', `${POLICIES}/${policy.id}`);

    for (const policy of policies) {
      const created = (await tenant.restore(sut, policy))!;
      expect(created.notes).toEqual([]);
      const live = await restored(policy, created.id);
      // Graph stored it rewritten: the authentication strength expanded, every condition set there
      expect(sut.fingerprint(live)).toBe(sut.fingerprint(policy));
      expect(live.data.state).toBe(policy.data.state);
    }
    const mfa = (await tenant.records('conditional_access_policy')).find((p) =>
      p.name?.startsWith('MS.AAD.3.2v1'),
    )!;
    expect(mfa.data.grantControls).toMatchObject({
      authenticationStrength: {
        id: '00000000-0000-0000-0000-000000000002',
        allowedCombinations: expect.any(Array),
      },
    });
  });

  it('puts back a policy turned off and narrowed (a location condition added), matched by id', async () => {
    const [policy] = await tenant.records('conditional_access_policy');
    await tenant.call(CA, 'PATCH', `${POLICIES}/${policy.id}`, {
      state: 'disabled',
      conditions: {
        clientAppTypes: ['browser'],
        locations: { includeLocations: ['All'], excludeLocations: ['AllTrusted'] },
      },
    });
    expect(sut.fingerprint((await restored(policy))!)).not.toBe(sut.fingerprint(policy));

    expect(await tenant.restore(sut, policy)).toMatchObject({ id: policy.id, notes: [] });

    expect(sut.fingerprint(await restored(policy))).toBe(sut.fingerprint(policy));
  });

  describe('a policy that would lock every Global Administrator out', () => {
    /** A backup record of a policy blocking all users from all applications, excluding `excludeUsers`. */
    const blockAll = (template: ResourceRecord, displayName: string, excludeUsers: string[] = []) => ({
      ...template,
      id: '7a3f0c1e-0000-4000-a000-000000000031',
      name: displayName,
      data: {
        ...template.data,
        id: '7a3f0c1e-0000-4000-a000-000000000031',
        displayName,
        state: 'enabled',
        conditions: {
          clientAppTypes: ['all'],
          applications: { includeApplications: ['All'] },
          users: { includeUsers: ['All'], excludeUsers },
        },
        grantControls: { operator: 'OR', builtInControls: ['block'] },
        sessionControls: null,
      },
    });
    let admins: string[];

    it('is written report-only with a note, enabled with enforce, enabled when it excludes an admin who can sign in', async () => {
      const users = (await tenant.records('user')).filter((user) => user.data.accountEnabled === true);
      admins = users.slice(0, 2).map((user) => user.id);
      for (const principalId of admins)
        await tenant.call(
          ['RoleManagement.ReadWrite.Directory'],
          'POST',
          '/roleManagement/directory/roleAssignments',
          {
            principalId,
            roleDefinitionId: GLOBAL_ADMINISTRATOR_ROLE,
            directoryScopeId: '/',
          },
        );
      const [template] = await tenant.records('conditional_access_policy');

      const guarded = await tenant.restore(sut, blockAll(template, 'Block everyone'));
      expect(guarded!.notes.join(' ')).toMatch(/report-only.*Global Administrator/);
      const live = (await tenant.records('conditional_access_policy')).find(
        (p) => p.name === 'Block everyone',
      )!;
      expect(live.data.state).toBe('enabledForReportingButNotEnforced');

      const enforced = await tenant.restore(
        tenant.restorer({ restoreOptions: { enforce: true } }),
        blockAll(template, 'Block everyone, enforced'),
      );
      expect(enforced!.notes).toEqual([]);
      const enforcedLive = (await tenant.records('conditional_access_policy')).find(
        (p) => p.name === 'Block everyone, enforced',
      )!;
      expect(enforcedLive.data.state).toBe('enabled');

      const sparing = blockAll(template, 'Block everyone but one admin', [admins[0]]);
      expect((await tenant.restore(sut, sparing))!.notes).toEqual([]);
      const sparingLive = (await tenant.records('conditional_access_policy')).find(
        (p) => p.name === 'Block everyone but one admin',
      )!;
      expect(sparingLive.data.state).toBe('enabled');
      expect(sut.fingerprint(sparingLive)).toBe(sut.fingerprint(sparing));

      // An admin whose account is disabled cannot sign in: sparing only them spares nobody.
      // Disabling a Global Administrator takes a tool that holds a role acting on administrators
      // ("Update user": app-only writes to privileged users need the app to hold one).
      const tool = tenant.sim.registerApp(['User.ReadWrite.All']);
      await tenant.adminCall('POST', '/v1.0/roleManagement/directory/roleAssignments', {
        principalId: tenant.sim.servicePrincipalOf(tool.clientId),
        roleDefinitionId: GLOBAL_ADMINISTRATOR_ROLE,
        directoryScopeId: '/',
      });
      const client = await graphClient(tenant.sim, tool);
      const disabled = await client.call('PATCH', `/v1.0/users/${admins[1]}`, { accountEnabled: false });
      await client.close();
      expect(disabled.status).toBe(204);
      const sparingDisabled = blockAll(template, 'Block everyone but a disabled admin', [admins[1]]);
      expect((await tenant.restore(sut, sparingDisabled))!.notes.join(' ')).toMatch(
        /all 1 Global Administrator/,
      );
    });
  });
});
