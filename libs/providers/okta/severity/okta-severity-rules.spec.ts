import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { recordPatch } from '@libs/diff/record-patch.js';
import type { ChangeAction, ChangeFacts } from '@libs/diff/change-facts.js';
import { rateChange as rateBy } from '@libs/diff/severity-rule.js';
import { OKTA_SEVERITY_RULES as SEVERITY_RULES } from './okta-severity-rules.js';

const rateChange = (facts: ChangeFacts) => rateBy(SEVERITY_RULES, facts);

type Json = Record<string, unknown>;

/** A change as the diff builds it: the patch computed from before and after. */
function change(resourceType: string, action: ChangeAction, before?: Json, after?: Json): ChangeFacts {
  const patch = action === 'modified' ? recordPatch(before ?? {}, after ?? {}, new Set(['lastUpdated'])) : [];
  return { resourceType, action, before, after, patch };
}

const passwordPolicy = (
  complexity: Json,
  lockout: Json = { maxAttempts: 10 },
  age: Json = { maxAgeDays: 90 },
) => ({
  type: 'PASSWORD',
  status: 'ACTIVE',
  settings: { password: { complexity, lockout, age } },
});
const strong = { minLength: 12, minSymbol: 1, excludeUsername: true };
const mfaPolicy = (self: string) => ({
  type: 'MFA_ENROLL',
  settings: { type: 'AUTHENTICATORS', authenticators: [{ key: 'okta_verify', enroll: { self } }] },
});
const signOnRule = (actions: Json, conditions: Json = {}) => ({ type: 'SIGN_ON', actions, conditions });
const accessRule = (factorMode: string) => ({
  type: 'ACCESS_POLICY',
  actions: { appSignOn: { access: 'ALLOW', verificationMethod: { factorMode, type: 'ASSURANCE' } } },
});
const authServerRule = (clients: string[], grantTypes: string[]) => ({
  conditions: { clients: { include: clients }, grantTypes: { include: grantTypes } },
});
const app = (label: string, signOnMode = 'SAML_2_0') => ({ label, signOnMode, status: 'ACTIVE' });

/**
 * For every rule, changes it must rate (and, where a near miss matters, one it must not). The
 * table is checked to cover every rule, so a new rule without an example fails here.
 */
const EXAMPLES: Record<string, { rates: ChangeFacts[]; spares?: ChangeFacts[] }> = {
  'admin-role-granted': {
    rates: [change('admin_role_assignment', 'added', undefined, { type: 'SUPER_ADMIN' })],
  },
  'admin-role-widened': {
    rates: [
      {
        ...change('admin_role_target', 'removed', { roleType: 'USER_ADMIN', groupId: '00g1' }),
        scope: { parentKept: true, siblings: 0 },
      },
    ],
    spares: [
      {
        ...change('admin_role_target', 'removed', { roleType: 'USER_ADMIN', groupId: '00g1' }),
        scope: { parentKept: true, siblings: 1 },
      },
      {
        ...change('admin_role_target', 'removed', { roleType: 'APP_ADMIN', appName: 'salesforce' }),
        scope: { parentKept: false, siblings: 0 },
      },
      change('admin_role_target', 'removed', { roleType: 'USER_ADMIN', groupId: '00g1' }),
    ],
  },
  'security-policy-removed': {
    rates: [
      change('policy', 'removed', { type: 'MFA_ENROLL' }),
      change('policy', 'removed', { type: 'ACCESS_POLICY' }),
    ],
    spares: [change('policy', 'removed', { type: 'PROFILE_ENROLLMENT' })],
  },
  'security-policy-deactivated': {
    rates: [
      change(
        'policy',
        'modified',
        { type: 'OKTA_SIGN_ON', status: 'ACTIVE' },
        { type: 'OKTA_SIGN_ON', status: 'INACTIVE' },
      ),
    ],
  },
  'password-policy-weakened': {
    rates: [
      change('policy', 'modified', passwordPolicy(strong), passwordPolicy({ ...strong, minLength: 8 })),
      change('policy', 'modified', passwordPolicy(strong), passwordPolicy({ ...strong, minSymbol: 0 })),
      change(
        'policy',
        'modified',
        passwordPolicy(strong),
        passwordPolicy({ ...strong, excludeUsername: false }),
      ),
      change('policy', 'modified', passwordPolicy(strong), passwordPolicy(strong, { maxAttempts: 0 })),
      change(
        'policy',
        'modified',
        passwordPolicy(strong),
        passwordPolicy(strong, undefined, { maxAgeDays: 0 }),
      ),
    ],
    spares: [
      change('policy', 'modified', passwordPolicy(strong), passwordPolicy({ ...strong, minLength: 16 })),
    ],
  },
  'mfa-enrollment-weakened': {
    rates: [change('policy', 'modified', mfaPolicy('REQUIRED'), mfaPolicy('OPTIONAL'))],
    spares: [change('policy', 'modified', mfaPolicy('OPTIONAL'), mfaPolicy('REQUIRED'))],
  },
  'sign-on-rule-removed': {
    rates: [
      change('policy_rule', 'removed', signOnRule({})),
      change('policy_rule', 'removed', accessRule('2FA')),
    ],
    spares: [change('policy_rule', 'removed', { type: 'PASSWORD' })],
  },
  'sign-on-rule-weakened': {
    rates: [
      change(
        'policy_rule',
        'modified',
        signOnRule({ signon: { access: 'DENY' } }),
        signOnRule({ signon: { access: 'ALLOW' } }),
      ),
      change(
        'policy_rule',
        'modified',
        signOnRule({ signon: { access: 'ALLOW', requireFactor: true } }),
        signOnRule({ signon: { access: 'ALLOW', requireFactor: false } }),
      ),
      change('policy_rule', 'modified', accessRule('2FA'), accessRule('1FA')),
      change(
        'policy_rule',
        'modified',
        signOnRule({}, { network: { connection: 'ZONE', include: ['nzo1'] } }),
        signOnRule({}, { network: { connection: 'ANYWHERE' } }),
      ),
    ],
  },
  'authorization-server-access-opened': {
    rates: [
      change(
        'authorization_server_policy',
        'modified',
        authServerRule(['0oa1'], []),
        authServerRule(['ALL_CLIENTS'], []),
      ),
      change(
        'authorization_server_policy_rule',
        'modified',
        authServerRule([], ['authorization_code']),
        authServerRule([], ['authorization_code', 'client_credentials']),
      ),
      change('authorization_server_policy_rule', 'added', undefined, authServerRule(['ALL_CLIENTS'], [])),
    ],
  },
  'authenticator-disabled': {
    rates: [
      change(
        'authenticator',
        'modified',
        { key: 'okta_verify', status: 'ACTIVE' },
        { key: 'okta_verify', status: 'INACTIVE' },
      ),
      change('authenticator', 'removed', { key: 'phone_number' }),
    ],
  },
  'admin-role-reach-grown': {
    rates: [
      {
        ...change('admin_role_target', 'added', undefined, { roleType: 'APP_ADMIN', appId: '0oa1' }),
        scope: { parentKept: true, siblings: 2 },
      },
    ],
    spares: [
      {
        ...change('admin_role_target', 'added', undefined, { roleType: 'APP_ADMIN', appId: '0oa1' }),
        scope: { parentKept: true, siblings: 0 },
      },
    ],
  },
  'admin-role-narrowed': {
    rates: [
      {
        ...change('admin_role_target', 'added', undefined, { roleType: 'HELP_DESK_ADMIN', groupId: '00g1' }),
        scope: { parentKept: true, siblings: 0 },
      },
      {
        ...change('admin_role_target', 'added', undefined, { roleType: 'HELP_DESK_ADMIN', groupId: '00g1' }),
        scope: { parentKept: false, siblings: 0 },
      },
      {
        ...change('admin_role_target', 'removed', { roleType: 'USER_ADMIN', groupId: '00g1' }),
        scope: { parentKept: true, siblings: 1 },
      },
    ],
  },
  'admin-role-changed': {
    rates: [
      change('custom_admin_role', 'added', undefined, { label: 'Helpdesk' }),
      change('admin_role_assignment', 'removed', { type: 'ORG_ADMIN' }),
    ],
  },
  'policy-changed': {
    rates: [change('policy', 'modified', { type: 'PASSWORD', name: 'a' }, { type: 'PASSWORD', name: 'b' })],
  },
  'authorization-server-changed': {
    rates: [change('authorization_server_scope', 'added', undefined, { name: 'orders:read' })],
  },
  'authenticator-changed': { rates: [change('authenticator', 'modified', { name: 'a' }, { name: 'b' })] },
  'identity-provider-changed': {
    rates: [change('identity_provider', 'added', undefined, { type: 'SAML2' })],
  },
  'app-added': { rates: [change('app', 'added', undefined, app('Payroll'))] },
  'app-removed': { rates: [change('app', 'removed', app('Payroll'))] },
  'app-cosmetic': {
    rates: [change('app', 'modified', app('Payroll'), app('Payroll (EU)'))],
    spares: [change('app', 'modified', app('Payroll'), app('Payroll (EU)', 'BOOKMARK'))],
  },
  'app-sign-on-changed': { rates: [change('app', 'modified', app('Payroll'), app('Payroll', 'BOOKMARK'))] },
  'app-changed': {
    rates: [
      change(
        'app',
        'modified',
        { ...app('Payroll'), status: 'ACTIVE' },
        { ...app('Payroll'), status: 'INACTIVE' },
      ),
      change(
        'app_feature',
        'modified',
        { name: 'USER_PROVISIONING', status: 'ENABLED' },
        { name: 'USER_PROVISIONING', status: 'DISABLED' },
      ),
    ],
  },
  'network-zone-changed': {
    rates: [change('network_zone', 'modified', { gateways: [] }, { gateways: [{ value: '0.0.0.0/0' }] })],
  },
  'hook-added-or-changed': { rates: [change('event_hook', 'added', undefined, { name: 'SIEM export' })] },
  'trusted-origin-added-or-changed': {
    rates: [change('trusted_origin', 'added', undefined, { origin: 'https://x.example' })],
  },
  'custom-domain-changed': {
    rates: [
      change('custom_domain', 'modified', { domain: 'login.a.example' }, { domain: 'login.b.example' }),
    ],
  },
  'behavior-changed': {
    rates: [change('behavior', 'modified', { status: 'ACTIVE' }, { status: 'INACTIVE' })],
  },
  'integration-removed': {
    rates: [
      change('inline_hook', 'removed', { name: 'token hook' }),
      change('trusted_origin', 'removed', {}),
    ],
  },
  'group-changed': {
    rates: [
      change('group', 'added', undefined, { profile: { name: 'Admins' } }),
      change('group_rule', 'modified', { name: 'a' }, { name: 'b' }),
      change('group_membership', 'removed', { groupId: '00g1', userId: '00u1' }),
    ],
  },
  'app-assignment-changed': { rates: [change('app_group_assignment', 'added', undefined, { id: '00g1' })] },
  'schema-changed': { rates: [change('user_schema', 'modified', { title: 'a' }, { title: 'b' })] },
  'user-status-changed': {
    rates: [change('user', 'modified', { status: 'ACTIVE' }, { status: 'SUSPENDED' })],
    spares: [
      change(
        'user',
        'modified',
        { status: 'ACTIVE', profile: { title: 'a' } },
        { status: 'ACTIVE', profile: { title: 'b' } },
      ),
    ],
  },
  'user-changed': {
    rates: [
      change('user', 'modified', { profile: { title: 'a' } }, { profile: { title: 'b' } }),
      change('user', 'added', undefined, { status: 'STAGED' }),
    ],
  },
  'branding-changed': {
    rates: [change('brand_theme', 'modified', { primaryColorHex: '#000' }, { primaryColorHex: '#fff' })],
  },
  'other-change': { rates: [change('gadget', 'added', undefined, {})] },
};

describe('severity rules', () => {
  it('has an example for every rule, and no example for a rule that does not exist', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(SEVERITY_RULES.map((rule) => rule.id).sort());
  });

  describe.each(SEVERITY_RULES.map((rule) => [rule.id, rule] as const))('%s', (id, rule) => {
    it(`rates its examples ${rule.severity}`, () => {
      for (const facts of EXAMPLES[id].rates)
        expect(rateChange(facts)).toEqual({ severity: rule.severity, rule: id });
    });
  });

  // Only rules with near misses: a test over an empty list would assert nothing.
  describe.each(SEVERITY_RULES.filter((rule) => EXAMPLES[rule.id]?.spares).map((rule) => [rule.id] as const))(
    '%s',
    (id) => {
      it('leaves its near misses to other rules', () => {
        for (const facts of EXAMPLES[id].spares ?? []) expect(rateChange(facts).rule).not.toBe(id);
      });
    },
  );

  it('is the table docs/severity.md publishes, rule by rule', () => {
    // Okta's table comes before the Okta Workflows and Microsoft Entra ID sections, which have their own specs.
    const doc = readFileSync(new URL('../../../../docs/severity.md', import.meta.url), 'utf8')
      .split('\n## Microsoft Entra ID')[0]
      .split('\n## Okta Workflows')[0];
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` +\| (critical|high|medium|low|info) +\|/gm)].map(
      (match) => [match[1], match[2]],
    );

    expect(rows).toEqual(SEVERITY_RULES.map((rule) => [rule.id, rule.severity]));
  });
});
