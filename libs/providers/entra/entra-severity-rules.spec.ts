import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import type { ChangeAction, ChangeFacts } from '@libs/diff/change-facts.js';
import { recordPatch } from '@libs/diff/record-patch.js';
import { rateChange as rateBy } from '@libs/diff/severity-rule.js';

import { ENTRA_VOLATILE_FIELDS } from './entra-not-captured.js';
import { ENTRA_SEVERITY_RULES } from './entra-severity-rules.js';

type Json = Record<string, unknown>;

const rate = (facts: ChangeFacts) => rateBy(ENTRA_SEVERITY_RULES, facts);

/** A change as the diff builds it: the patch computed from before and after. */
function change(resourceType: string, action: ChangeAction, before?: Json, after?: Json): ChangeFacts {
  const patch =
    action === 'modified' ? recordPatch(before ?? {}, after ?? {}, new Set(ENTRA_VOLATILE_FIELDS)) : [];
  return { resourceType, action, before, after, patch };
}

/** A conditional access policy shaped as Graph returns it (the real tenant's MFA policy, trimmed). */
const policy = (
  overrides: { state?: string; users?: Json; controls?: string[]; strength?: Json | null } = {},
) => ({
  displayName: 'MFA for all users',
  state: overrides.state ?? 'enabled',
  modifiedDateTime: '2026-05-01T00:00:00.000Z',
  conditions: {
    clientAppTypes: ['all'],
    applications: { includeApplications: ['All'], excludeApplications: [] },
    users: { includeUsers: ['All'], excludeUsers: [], excludeGroups: [], ...overrides.users },
  },
  grantControls: {
    operator: 'OR',
    builtInControls: overrides.controls ?? ['mfa'],
    authenticationStrength: overrides.strength === undefined ? null : overrides.strength,
  },
});

/** A role assignment as Graph returns it (unifiedRoleAssignment). */
const GLOBAL_ADMINISTRATOR = '62e90394-69f5-4237-9190-012177145e10';
const assignment = (roleDefinitionId: string, principalId = 'u1') => ({
  principalId,
  roleDefinitionId,
  directoryScopeId: '/',
});

/** A domain's federation as Graph returns it (internalDomainFederation, trimmed). */
const FEDERATION = {
  '@odata.type': '#microsoft.graph.internalDomainFederation',
  displayName: 'Corp AD FS',
  issuerUri: 'http://sts.corp.example.com/adfs/services/trust',
  signingCertificate: 'MIIC...corp',
};

/** One change each rule rates, and near misses it must leave to others. */
const EXAMPLES: Record<string, { rates: ChangeFacts; spares?: ChangeFacts[] }> = {
  'entra-federation-added': {
    rates: change('domain_federation_configuration', 'added', undefined, FEDERATION),
    spares: [change('domain_federation_configuration', 'removed', FEDERATION)],
  },
  'entra-federation-signing-changed': {
    rates: change('domain_federation_configuration', 'modified', FEDERATION, {
      ...FEDERATION,
      signingCertificate: 'MIIC...attacker',
    }),
    spares: [
      change('domain_federation_configuration', 'modified', FEDERATION, {
        ...FEDERATION,
        displayName: 'AD FS 2',
      }),
    ],
  },
  'entra-federation-changed': {
    rates: change('domain_federation_configuration', 'modified', FEDERATION, {
      ...FEDERATION,
      displayName: 'AD FS 2',
    }),
  },
  'entra-pim-settings-changed': {
    rates: change(
      'role_management_policy',
      'modified',
      { rules: [{ id: 'Expiration_Admin_Assignment', isExpirationRequired: true }] },
      { rules: [{ id: 'Expiration_Admin_Assignment', isExpirationRequired: false }] },
    ),
  },
  'entra-ca-dependency-changed': {
    rates: change('authentication_context_class_reference', 'removed', { id: 'c1', displayName: 'Step-up' }),
  },
  'entra-app-management-policy-changed': {
    rates: change('default_app_management_policy', 'modified', { isEnabled: true }, { isEnabled: false }),
  },
  'entra-security-attribute-changed': {
    rates: change(
      'custom_security_attribute_definition',
      'modified',
      { status: 'Available' },
      { status: 'Deprecated' },
    ),
  },
  'entra-user-relations-changed': {
    rates: change('user_manager', 'added', undefined, { userId: 'u1', managerId: 'u2', managerType: 'user' }),
  },
  'entra-user-extension-values-changed': {
    rates: change(
      'user_extension_values',
      'modified',
      { id: 'u1', extension_a_costCenter: 'CC-1' },
      { id: 'u1' },
    ),
  },
  'entra-global-admin-added': {
    rates: change('role_assignment', 'added', undefined, assignment(GLOBAL_ADMINISTRATOR)),
    spares: [
      change('role_assignment', 'added', undefined, assignment('fe930be7-5e62-47db-91af-98c3a49a38b1')),
      change('role_assignment', 'removed', assignment(GLOBAL_ADMINISTRATOR)),
      change(
        'role_eligibility_schedule',
        'modified',
        { ...assignment(GLOBAL_ADMINISTRATOR), status: 'Provisioned' },
        { ...assignment(GLOBAL_ADMINISTRATOR), status: 'Revoked' },
      ),
    ],
  },
  'entra-security-defaults-off': {
    rates: change(
      'identity_security_defaults_enforcement_policy',
      'modified',
      { isEnabled: true },
      { isEnabled: false },
    ),
    spares: [
      change(
        'identity_security_defaults_enforcement_policy',
        'modified',
        { isEnabled: false },
        { isEnabled: true },
      ),
    ],
  },
  'entra-app-credential-added': {
    rates: change(
      'application',
      'modified',
      { passwordCredentials: [{ keyId: 'k1' }] },
      { passwordCredentials: [{ keyId: 'k1' }, { keyId: 'k2' }] },
    ),
    spares: [
      change(
        'application',
        'modified',
        { passwordCredentials: [{ keyId: 'k1' }, { keyId: 'k2' }] },
        { passwordCredentials: [{ keyId: 'k1' }] },
      ),
    ],
  },
  'entra-role-changed': {
    rates: change(
      'role_eligibility_schedule',
      'added',
      undefined,
      assignment('fe930be7-5e62-47db-91af-98c3a49a38b1'),
    ),
  },
  'entra-consent-granted': {
    rates: change('oauth2_permission_grant', 'added', undefined, {
      scope: 'User.Read',
      consentType: 'AllPrincipals',
    }),
    spares: [change('oauth2_permission_grant', 'removed', { scope: 'User.Read' })],
  },
  'entra-cross-tenant-changed': {
    rates: change(
      'cross_tenant_access_policy_configuration_partner',
      'modified',
      { inboundTrust: { isMfaAccepted: false } },
      { inboundTrust: { isMfaAccepted: true } },
    ),
  },
  'entra-ca-policy-removed': { rates: change('conditional_access_policy', 'removed', policy()) },
  'entra-ca-policy-disabled': {
    rates: change(
      'conditional_access_policy',
      'modified',
      policy(),
      policy({ state: 'enabledForReportingButNotEnforced' }),
    ),
    spares: [
      change(
        'conditional_access_policy',
        'modified',
        policy({ state: 'disabled' }),
        policy({ state: 'enabled' }),
      ),
    ],
  },
  'entra-ca-policy-narrowed': {
    rates: change(
      'conditional_access_policy',
      'modified',
      policy(),
      policy({ users: { excludeGroups: ['g1'] } }),
    ),
    spares: [
      change('conditional_access_policy', 'modified', policy({ users: { excludeGroups: ['g1'] } }), policy()),
      change(
        'conditional_access_policy',
        'modified',
        policy({ controls: ['mfa'] }),
        policy({ controls: ['mfa', 'compliantDevice'] }),
      ),
    ],
  },
  'entra-named-location-trusted': {
    rates: change('named_location', 'modified', { isTrusted: false }, { isTrusted: true }),
    spares: [change('named_location', 'modified', { isTrusted: true }, { isTrusted: false })],
  },
  'entra-ca-policy-changed': {
    rates: change('conditional_access_policy', 'modified', policy(), { ...policy(), displayName: 'Renamed' }),
  },
  'entra-auth-policy-changed': {
    rates: change(
      'authentication_methods_policy',
      'modified',
      { policyVersion: '1.4' },
      { policyVersion: '1.5' },
    ),
  },
  'entra-named-location-changed': { rates: change('named_location', 'removed', { isTrusted: false }) },
  'entra-domain-changed': { rates: change('domain', 'added', undefined, { id: 'contoso.com' }) },
  'entra-app-changed': {
    rates: change('application_owner', 'removed', { applicationId: 'a', ownerId: 'u', ownerType: 'user' }),
    spares: [
      change(
        'application',
        'modified',
        { passwordCredentials: [{ keyId: 'k1' }] },
        { passwordCredentials: [{ keyId: 'k2' }] },
      ),
    ],
  },
  'entra-group-changed': {
    rates: change('group_membership', 'added', undefined, { groupId: 'g', memberId: 'u' }),
    spares: [change('organization', 'modified', { city: 'a' }, { city: 'b' })],
  },
  'entra-user-enabled-changed': {
    rates: change('user', 'modified', { accountEnabled: true }, { accountEnabled: false }),
  },
  'entra-user-changed': { rates: change('user', 'modified', { jobTitle: 'a' }, { jobTitle: 'b' }) },
  'entra-other-change': { rates: change('organization', 'modified', { city: 'a' }, { city: 'b' }) },
};

describe('Entra ID severity rules', () => {
  it('has an example for every rule', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(ENTRA_SEVERITY_RULES.map((rule) => rule.id).sort());
  });

  describe.each(ENTRA_SEVERITY_RULES.map((rule) => [rule.id, rule] as const))('%s', (id, rule) => {
    it('rates its example', () => {
      expect(rate(EXAMPLES[id].rates)).toEqual({ severity: rule.severity, rule: id });
    });
    it('leaves its near misses to other rules', () => {
      for (const facts of EXAMPLES[id].spares ?? []) expect(rate(facts).rule).not.toBe(id);
    });
  });

  it('does not report a policy whose only change is modifiedDateTime', () => {
    expect(
      change('conditional_access_policy', 'modified', policy(), { ...policy(), modifiedDateTime: 'later' })
        .patch,
    ).toEqual([]);
  });

  it('is the table docs/severity.md publishes under "Microsoft Entra ID", rule by rule', () => {
    const doc = readFileSync(new URL('../../../docs/severity.md', import.meta.url), 'utf8').split(
      '\n## Microsoft Entra ID',
    )[1];
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` +\| (critical|high|medium|low|info) +\|/gm)].map(
      (match) => [match[1], match[2]],
    );
    expect(rows).toEqual(ENTRA_SEVERITY_RULES.map((rule) => [rule.id, rule.severity]));
  });
});
