import type { CheckOutcome, CheckParams } from '@libs/compliance/compliance-types.js';
import { ResourceSample } from '@libs/compliance/resource-sample.js';
import type { CheckKey } from '@libs/compliance/check-keys.js';
import {
  blocks,
  gapsForAllUsers,
  gapsForPrivilegedRoles,
  type PolicyView,
  namesManagedDevice,
  requiresManagedDevice,
  requiresMfa,
  requiresPhishingResistant,
  viewOf,
} from './conditional-access.js';
import { configCheck, type EntraCheck, type EntraRecords, member, strings } from './entra-outcomes.js';

const POLICY = 'conditional_access_policy';
/** The types a check of conditional access reads. */
export const CONDITIONAL_ACCESS_READS = [
  'conditional_access_policy',
  'authentication_strength_policy',
] as const;
const READS = CONDITIONAL_ACCESS_READS;

/** The backup's conditional access policies, read with its authentication strengths. */
export function policiesOf(records: EntraRecords): PolicyView[] {
  const strengths = new Map(
    records
      .of('authentication_strength_policy')
      .map((r) => [r.id, strings(r.data.allowedCombinations)] as [string, string[]]),
  );
  return records.of(POLICY).map((record) => viewOf(record, strengths));
}

/** Whether an enabled policy requires phishing-resistant MFA of All users and apps (MS.AAD.3.1v1's rule). */
export function phishingResistantForAllUsers(records: EntraRecords): boolean {
  return policiesOf(records).some((p) => requiresPhishingResistant(p) && gapsForAllUsers(p).length === 0);
}

/** Whether an enabled policy requires MFA of All users and apps (MS.AAD.3.2v1's rule). */
export function mfaForAllUsers(records: EntraRecords): boolean {
  return policiesOf(records).some((p) => requiresMfa(p) && gapsForAllUsers(p).length === 0);
}

/** Who a policy must cover: every user and app, every highly privileged role, or every user's registration. */
type Scope = 'all' | 'privileged' | 'privileged_roles_named' | 'registration';

function gaps(policy: PolicyView, scope: Scope): string[] {
  if (scope === 'all') return gapsForAllUsers(policy);
  if (scope === 'privileged') return gapsForPrivilegedRoles(policy, true);
  if (scope === 'privileged_roles_named') return gapsForPrivilegedRoles(policy, false);
  // Registration of security info is a user action, not an app: only the users are judged.
  return gapsForAllUsers(policy).filter(
    (gap) => !gap.includes('cloud apps') && !gap.startsWith('excludeApp'),
  );
}

/**
 * The outcome of a search for an enforcing policy: the policies that do what the baseline asks
 * (`does`) are judged on who they cover; pass naming those that cover everyone, fail naming each
 * candidate with what keeps it from counting (report-only, disabled, exclusions...).
 */
export function enforcingPolicyOutcome(
  policies: readonly PolicyView[],
  does: (policy: PolicyView) => boolean,
  scope: Scope,
  expected: string,
  pointers: string[],
): CheckOutcome {
  const candidates = policies.filter(does).map((policy) => ({ policy, gaps: gaps(policy, scope) }));
  const enforcing = candidates.filter((c) => c.gaps.length === 0);
  const shown = enforcing.length > 0 ? enforcing : candidates;
  const sample = new ResourceSample();
  for (const { policy, gaps: missing } of shown)
    sample.add(policy.record.id, policy.record.name, { state: policy.state, gaps: missing });
  const none = candidates.length === 0;
  return {
    status: enforcing.length > 0 ? 'pass' : 'fail',
    resourceType: POLICY,
    resources: sample.items,
    total: sample.total,
    pointers,
    observed: { policies: policies.length, candidates: candidates.length, enforcing: enforcing.length },
    expected,
    ...(enforcing.length > 0
      ? {}
      : {
          note: none
            ? `No conditional access policy does this: ${expected}.`
            : 'Policies that would do this do not count: they are not enabled, or they leave users, roles or apps out.',
        }),
  };
}

interface PolicyCheckDefinition {
  key: CheckKey;
  id: string;
  policy: string;
  title: string;
  remediation: string;
  does: (policy: PolicyView) => boolean;
  scope: Scope;
  expected: string;
  pointers: string[];
}

/** A check that a conditional access policy enforcing `does` on `scope` exists. */
function policyCheck(definition: PolicyCheckDefinition): EntraCheck {
  const { does, scope, expected, pointers, ...check } = definition;
  return configCheck({
    ...check,
    reads: READS,
    evaluate: (records) => enforcingPolicyOutcome(policiesOf(records), does, scope, expected, pointers),
  });
}

const USERS = ['/state', '/conditions/users', '/conditions/applications'];
const GRANT = ['/grantControls/builtInControls', '/grantControls/operator'];
const STRENGTH = ['/grantControls/authenticationStrength'];

const conditions = (policy: PolicyView, key: string) => strings(policy.conditions[key]);

/** MS.AAD.1.1v1: legacy authentication SHALL be blocked. */
const legacyAuth = policyCheck({
  key: 'access.legacy_auth_blocked',
  id: 'entra.access.legacy_auth_blocked',
  policy: 'MS.AAD.1.1v1',
  title: 'Legacy authentication is blocked',
  remediation:
    'Create a conditional access policy on All users and All cloud apps, client apps "Exchange ActiveSync" and "Other clients", granting Block; enable it (not report-only).',
  does: (p) =>
    blocks(p) &&
    conditions(p, 'clientAppTypes').includes('exchangeActiveSync') &&
    conditions(p, 'clientAppTypes').includes('other'),
  scope: 'all',
  expected: 'an enabled policy blocks the exchangeActiveSync and other client apps for All users and apps',
  pointers: [...USERS, '/conditions/clientAppTypes', ...GRANT],
});

/** MS.AAD.2.1v1: users detected as high risk SHALL be blocked. */
const highRiskUsers = policyCheck({
  key: 'risk.high_risk_users_blocked',
  id: 'entra.risk.high_risk_users_blocked',
  policy: 'MS.AAD.2.1v1',
  title: 'Users detected as high risk are blocked',
  remediation:
    'Create a conditional access policy on All users and All cloud apps with user risk High, granting Block; enable it.',
  does: (p) => blocks(p) && conditions(p, 'userRiskLevels').includes('high'),
  scope: 'all',
  expected: 'an enabled policy blocks user risk high for All users and apps',
  pointers: [...USERS, '/conditions/userRiskLevels', ...GRANT],
});

/** MS.AAD.2.3v1: sign-ins detected as high risk SHALL be blocked. */
const highRiskSignIns = policyCheck({
  key: 'risk.high_risk_signins_blocked',
  id: 'entra.risk.high_risk_signins_blocked',
  policy: 'MS.AAD.2.3v1',
  title: 'Sign-ins detected as high risk are blocked',
  remediation:
    'Create a conditional access policy on All users and All cloud apps with sign-in risk High, granting Block; enable it.',
  does: (p) => blocks(p) && conditions(p, 'signInRiskLevels').includes('high'),
  scope: 'all',
  expected: 'an enabled policy blocks sign-in risk high for All users and apps',
  pointers: [...USERS, '/conditions/signInRiskLevels', ...GRANT],
});

/** MS.AAD.3.1v1: phishing-resistant MFA SHALL be enforced for all users. */
const phishingResistantAll = policyCheck({
  key: 'mfa.phishing_resistant_all',
  id: 'entra.mfa.phishing_resistant_all',
  policy: 'MS.AAD.3.1v1',
  title: 'Phishing-resistant MFA is required of all users',
  remediation:
    'Require the "Phishing-resistant MFA" authentication strength (FIDO2, Windows Hello for Business, certificate-based) in an enabled policy on All users and All cloud apps.',
  does: requiresPhishingResistant,
  scope: 'all',
  expected: 'an enabled policy requires a phishing-resistant authentication strength of All users and apps',
  pointers: [...USERS, ...STRENGTH],
});

/** MS.AAD.3.2v1: if phishing-resistant MFA is not enforced, an alternative MFA method SHALL be. */
const mfaAll = policyCheck({
  key: 'mfa.global_session',
  id: 'entra.mfa.all_users',
  policy: 'MS.AAD.3.2v1',
  title: 'MFA is required of all users',
  remediation:
    'Require multifactor authentication (or an authentication strength) in an enabled policy on All users and All cloud apps.',
  does: requiresMfa,
  scope: 'all',
  expected: 'an enabled policy requires MFA (or phishing-resistant MFA) of All users and apps',
  pointers: [...USERS, ...GRANT, ...STRENGTH],
});

/** MS.AAD.3.6v1: phishing-resistant MFA SHALL be required for highly privileged roles. */
const phishingResistantAdmins = policyCheck({
  key: 'mfa.phishing_resistant_admins',
  id: 'entra.mfa.phishing_resistant_admins',
  policy: 'MS.AAD.3.6v1',
  title: 'Phishing-resistant MFA is required of highly privileged roles',
  remediation:
    'Require the "Phishing-resistant MFA" authentication strength in an enabled policy that names every highly privileged role under Directory roles, on All cloud apps.',
  does: requiresPhishingResistant,
  scope: 'privileged_roles_named',
  expected: 'an enabled policy requires phishing-resistant MFA of every highly privileged role',
  pointers: [...USERS, ...STRENGTH],
});

/** CIS Microsoft 365 Foundations 5.2.2.1: MFA for all users in administrative roles. */
const mfaAdmins = policyCheck({
  key: 'mfa.admin_console',
  id: 'entra.mfa.admin_roles',
  policy: 'CIS M365 5.2.2.1',
  title: 'MFA is required of administrative roles',
  remediation:
    'Require MFA in an enabled policy on every highly privileged role (or All users) and All cloud apps.',
  does: requiresMfa,
  scope: 'privileged',
  expected: 'an enabled policy requires MFA of every highly privileged role',
  pointers: [...USERS, ...GRANT, ...STRENGTH],
});

/** MS.AAD.3.7v1: managed devices SHOULD be required for authentication. */
const managedDevices = policyCheck({
  key: 'access.managed_devices',
  id: 'entra.access.managed_devices',
  policy: 'MS.AAD.3.7v1',
  title: 'Managed devices are required for authentication',
  remediation:
    'Grant access requiring "compliant device" and "Microsoft Entra hybrid joined device", one of the selected controls, in an enabled policy on All users and All cloud apps.',
  does: requiresManagedDevice,
  scope: 'all',
  expected: 'an enabled policy requires a compliant or hybrid joined device of All users and apps',
  pointers: [...USERS, ...GRANT],
});

/** MS.AAD.3.8v1: managed devices SHOULD be required to register MFA. */
const managedDevicesRegistration = policyCheck({
  key: 'access.managed_devices_mfa_registration',
  id: 'entra.access.managed_devices_mfa_registration',
  policy: 'MS.AAD.3.8v1',
  title: 'Managed devices are required to register MFA',
  remediation:
    'Require a compliant or hybrid joined device for the user action "Register security information" in an enabled policy on All users.',
  does: (p) =>
    namesManagedDevice(p) &&
    strings(p.applications.includeUserActions).includes('urn:user:registersecurityinfo'),
  scope: 'registration',
  expected: 'an enabled policy requires a managed device of All users registering security information',
  pointers: ['/state', '/conditions/users', '/conditions/applications/includeUserActions', ...GRANT],
});

/** MS.AAD.3.9v1: device code authentication SHOULD be blocked. */
const deviceCode = policyCheck({
  key: 'access.device_code_blocked',
  id: 'entra.access.device_code_blocked',
  policy: 'MS.AAD.3.9v1',
  title: 'Device code authentication is blocked',
  remediation:
    'Create a conditional access policy on All users and All cloud apps with authentication flows "Device code flow", granting Block; enable it.',
  does: (p) =>
    blocks(p) &&
    String(member(p.conditions.authenticationFlows, 'transferMethods') ?? '')
      .split(',')
      .includes('deviceCodeFlow'),
  scope: 'all',
  expected: 'an enabled policy blocks the device code flow for All users and apps',
  pointers: [...USERS, '/conditions/authenticationFlows/transferMethods', ...GRANT],
});

const MINUTES = { minutes: 1, hours: 60, days: 1440 } as const;

/** A policy's sign-in frequency in minutes, or null without a time-based one. */
function signInFrequencyMinutes(policy: PolicyView): number | null {
  const frequency = member(policy.record.data.sessionControls, 'signInFrequency');
  if (member(frequency, 'isEnabled') !== true || member(frequency, 'frequencyInterval') === 'everyTime')
    return member(frequency, 'frequencyInterval') === 'everyTime' ? 0 : null;
  const unit = MINUTES[String(member(frequency, 'type')) as keyof typeof MINUTES];
  const value = Number(member(frequency, 'value'));
  return unit === undefined || !Number.isFinite(value) ? null : unit * value;
}

/**
 * CIS Microsoft 365 Foundations 5.2.2.4 (sign-in frequency): an enabled policy on All users and
 * apps whose sign-in frequency is at most `maxLifetimeMinutes` (the framework's threshold).
 */
const sessionLifetime: EntraCheck = configCheck({
  key: 'session.lifetime',
  id: 'entra.session.lifetime',
  policy: 'CIS M365 5.2.2.4',
  title: 'Sign-in frequency limits session lifetime',
  remediation:
    'Set a sign-in frequency no longer than required in an enabled conditional access policy on All users and All cloud apps.',
  reads: READS,
  evaluate(records, params: CheckParams) {
    const max = Number(params.maxLifetimeMinutes);
    const policies = policiesOf(records);
    const outcome = enforcingPolicyOutcome(
      policies,
      (p) => {
        const minutes = signInFrequencyMinutes(p);
        return minutes !== null && minutes <= max;
      },
      'all',
      `an enabled policy on All users and apps sets a sign-in frequency of at most ${max} minutes`,
      [...USERS, '/sessionControls/signInFrequency'],
    );
    if (outcome.status === 'pass') return outcome;
    // Name the policies that limit sessions, but for longer than required.
    const longer = new ResourceSample();
    for (const p of policies) {
      const minutes = signInFrequencyMinutes(p);
      if (minutes !== null && minutes > max)
        longer.add(p.record.id, p.record.name, { state: p.state, signInFrequencyMinutes: minutes });
    }
    return longer.total === 0 || outcome.total > 0
      ? outcome
      : {
          ...outcome,
          resources: longer.items,
          total: longer.total,
          note: 'Sign-in frequency longer than required.',
        };
  },
});

/** CIS Microsoft 365 Foundations 5.2.2.4: browser sessions do not persist ("never persistent"). */
const persistentBrowser = policyCheck({
  key: 'session.persistent_cookie',
  id: 'entra.session.persistent_browser',
  policy: 'CIS M365 5.2.2.4',
  title: 'Browser sessions are never persistent',
  remediation:
    'Set "Persistent browser session: Never persistent" in an enabled conditional access policy on All users and All cloud apps.',
  does: (p) => {
    const persistent = member(p.record.data.sessionControls, 'persistentBrowser');
    return member(persistent, 'isEnabled') === true && member(persistent, 'mode') === 'never';
  },
  scope: 'all',
  expected: 'an enabled policy on All users and apps sets persistent browser sessions to never',
  pointers: [...USERS, '/sessionControls/persistentBrowser'],
});

/**
 * CIS Microsoft 365 Foundations 5.1.1.1 / Microsoft "Security defaults": a tenant is protected
 * either by security defaults or, once they are off, by enabled conditional access policies
 * requiring MFA of all users (the two exclude each other).
 */
const baselineProtection: EntraCheck = configCheck({
  key: 'access.baseline_protection',
  id: 'entra.access.security_defaults_or_conditional_access',
  policy: 'CIS M365 5.1.1.1',
  title: 'Security defaults, or conditional access in their place, protect the tenant',
  remediation:
    'Enable security defaults, or (with Entra ID P1) disable them and enforce MFA for all users with conditional access.',
  reads: ['identity_security_defaults_enforcement_policy', ...READS],
  evaluate(records) {
    const defaults = records.one('identity_security_defaults_enforcement_policy');
    const mfa = enforcingPolicyOutcome(
      policiesOf(records),
      requiresMfa,
      'all',
      'an enabled policy requires MFA of All users and apps',
      [],
    );
    const enabled = defaults?.data.isEnabled === true;
    const resources = [
      ...(defaults ? [{ id: defaults.id, name: defaults.name, observed: { isEnabled: enabled } }] : []),
      ...mfa.resources,
    ];
    return {
      status: enabled || mfa.status === 'pass' ? 'pass' : 'fail',
      resourceType: 'identity_security_defaults_enforcement_policy',
      resources,
      total: resources.length,
      pointers: ['/isEnabled', 'conditional_access_policy /state /grantControls'],
      observed: {
        securityDefaults: enabled,
        enforcingMfaPolicies: (mfa.observed as { enforcing: number }).enforcing,
      },
      expected:
        'security defaults enabled, or an enabled conditional access policy requiring MFA of All users',
    };
  },
});

/** Checks read from conditional access policies (SCuBA MS.AAD.1 to 3, CIS Microsoft 365 5.1 and 5.2). */
export const CONDITIONAL_ACCESS_CHECKS: readonly EntraCheck[] = [
  legacyAuth,
  highRiskUsers,
  highRiskSignIns,
  phishingResistantAll,
  mfaAll,
  phishingResistantAdmins,
  mfaAdmins,
  managedDevices,
  managedDevicesRegistration,
  deviceCode,
  sessionLifetime,
  persistentBrowser,
  baselineProtection,
];
