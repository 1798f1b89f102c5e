import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';

import { TenantState } from '@libs/simulators/entra/tenant-state.js';
import { scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import { parseScubaGearExport, ScubaGearExportError } from './scubagear-export.js';
import { seedFromScubaGear } from './scubagear-seeder.js';

const FILE = scubaGearFile();
if (!FILE) process.stdout.write('Skipping the ScubaGear export shapes: the shared fixture is absent.\n');

type Json = Record<string, unknown>;

/** The real export (ScubaGear 1.8.0) as parsed JSON, a fresh copy per call. */
const realExport = (): Json => JSON.parse(readFileSync(FILE!, 'utf8').replace(/^\uFEFF/, '')) as Json;

/** What a seed from `exported` puts in a tenant: the seed report's counts and the stored objects. */
function seed(exported: Json | string): { counts: Record<string, number>; state: TenantState } {
  const source = parseScubaGearExport(
    typeof exported === 'string' ? exported : JSON.stringify(exported),
    'export.json',
  );
  const state = new TenantState(source.tenant_details[0].TenantId);
  return { counts: seedFromScubaGear(state, source).counts, state };
}

const objects = (
  state: TenantState,
  collection: 'domains' | 'authorizationPolicy' | 'authenticationMethodsPolicy',
) => [...state.collection(collection).values()];

(FILE ? describe : describe.skip)(
  'ScubaGear exports of every shape (the real 1.8.0 export, reshaped)',
  () => {
    const baseline = seed(realExport());

    it('seeds the real export as it is', () => {
      expect(baseline.counts).toMatchObject({
        conditionalAccessPolicies: 7,
        authorizationPolicy: 1,
        domains: 1,
      });
      expect(baseline.counts.roleAssignments).toBeGreaterThan(0);
    });

    it('reads one-element lists written as the element alone, as ConvertTo-Json does when piped', () => {
      const exported = realExport();
      const first = <T>(list: unknown): T => (list as T[])[0];
      const tenant = first<Json>(exported.tenant_details);
      tenant.AADAdditionalData = first(tenant.AADAdditionalData);
      exported.tenant_details = tenant;
      exported.authorization_policies = first(exported.authorization_policies);
      exported.authentication_method = first(exported.authentication_method);
      exported.domain_settings = [exported.domain_settings];
      for (const role of exported.privileged_roles as Json[])
        if (Array.isArray(role.Assignments) && role.Assignments.length === 1)
          role.Assignments = role.Assignments[0];

      const reshaped = seed(exported);
      expect(reshaped.counts).toEqual(baseline.counts);
      expect(reshaped.state.collection('organization')).toEqual(baseline.state.collection('organization'));
      expect(objects(reshaped.state, 'authorizationPolicy')).toEqual(
        objects(baseline.state, 'authorizationPolicy'),
      );
    });

    it('reads a tenant with one conditional access policy, written as an object', () => {
      const exported = realExport();
      const [policy] = exported.conditional_access_policies as Json[];
      exported.conditional_access_policies = policy;
      const { counts, state } = seed(exported);
      expect(counts.conditionalAccessPolicies).toBe(1);
      expect([...state.collection('conditionalAccessPolicies').keys()]).toEqual([policy.Id]);
    });

    it('reads null and missing sections as empty, and seeds the rest', () => {
      const exported = realExport();
      exported.domain_settings = null;
      exported.authorization_policies = null;
      delete exported.authentication_method;
      delete exported.privileged_service_principals;
      delete exported.risky_applications;
      delete exported.risky_third_party_service_principals;
      const { counts } = seed(exported);
      expect(counts).toMatchObject({ domains: 0, authorizationPolicy: 0, authenticationMethodsPolicy: 0 });
      expect(counts.conditionalAccessPolicies).toBe(7);
      expect(counts.applications).toBe(0);
    });

    it('reads an empty privileged_users list (a tenant without service plans) and the organization ScubaGear failed to read', () => {
      const exported = realExport();
      exported.privileged_users = [];
      (exported.tenant_details as Json[])[0].AADAdditionalData = 'Error retrieving additional data';
      const { counts, state } = seed(exported);
      expect(counts.users).toBe(0);
      expect([...state.collection('organization').values()]).toEqual([
        { id: (exported.tenant_details as Json[])[0].TenantId, displayName: 'tqhjy' },
      ]);
    });

    it('reads arrays written by Windows PowerShell 5.1 as { value, Count }', () => {
      const exported = realExport();
      const policies = exported.conditional_access_policies as Json[];
      exported.conditional_access_policies = { value: policies, Count: policies.length };
      expect(seed(exported).counts).toEqual(baseline.counts);
    });

    it('reads the authentication methods policy of ScubaGear 1.0 to 1.2 (configurations inside the policy)', () => {
      const exported = realExport();
      const [methods] = exported.authentication_method as Json[];
      exported.authentication_method = [
        {
          ...(methods.authentication_method_policy as Json),
          AuthenticationMethodConfigurations: methods.authentication_method_feature_settings,
        },
      ];
      const { state } = seed(exported);
      expect(objects(state, 'authenticationMethodsPolicy')).toEqual(
        objects(baseline.state, 'authenticationMethodsPolicy'),
      );
    });

    it('repairs a member written with no value, as ScubaGear does, to an empty list', () => {
      const exported = realExport();
      exported.privileged_service_principals = 'NO VALUE';
      const text = JSON.stringify(exported, null, 2).replace('"NO VALUE"', '');
      expect(() => JSON.parse(text)).toThrow();
      expect(seed(text).counts.conditionalAccessPolicies).toBe(7);
    });
  },
);

describe('a file that is not a ScubaGear export with Entra settings', () => {
  const refused = (text: string): string => {
    try {
      parseScubaGearExport(text, 'mine.json');
    } catch (error) {
      expect(error).toBeInstanceOf(ScubaGearExportError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };
  const minimal = (members: Json) =>
    JSON.stringify({
      tenant_details: [{ TenantId: '3c19c757-3b55-411f-b03f-2bcc514a598d', DisplayName: 'x' }],
      conditional_access_policies: [],
      ...members,
    });

  it('is refused with the section and what was expected', () => {
    expect(refused('not json')).toMatch(
      /^mine\.json is not a ScubaGear ProviderSettingsExport\.json: it is not JSON/,
    );
    expect(refused('[1, 2]')).toContain('the file holds a list, not an object of sections');
    expect(refused(JSON.stringify({ orgs: [] }))).toContain(
      'it has no conditional_access_policies section (was ScubaGear run with -ProductNames aad?)',
    );
    expect(refused(minimal({ tenant_details: [{ TenantId: 'Error retrieving Tenant ID' }] }))).toContain(
      `tenant_details[0].TenantId should be the tenant's id (a GUID), found a string ("Error retrieving Tenant ID")`,
    );
    expect(refused(minimal({ tenant_details: [] }))).toContain('tenant_details should name the tenant');
    expect(refused(minimal({ authorization_policies: 'on' }))).toContain(
      'authorization_policies should be a list of objects or one object, found a string ("on")',
    );
    expect(refused(minimal({ conditional_access_policies: [{ DisplayName: 'no id' }] }))).toContain(
      'conditional_access_policies[0] should be an object with Id, found one without it',
    );
    expect(refused(minimal({ domain_settings: [7] }))).toContain(
      'domain_settings[0] should be an object with Id, found a number',
    );
    expect(refused(minimal({ privileged_users: 'none' }))).toContain(
      'privileged_users should be an object keyed by directory object id, found a string ("none")',
    );
  });
});
