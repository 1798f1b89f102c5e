import type { Check, CheckOutcome } from '@libs/compliance/compliance-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { judgeEach, notInBackup } from './okta-outcomes.js';
import { appSignOnAllows, objectAt, PolicyBook, requiresTwoFactors, signOnAllows } from './policy-book.js';
import { label } from './session-checks.js';
import { type SettingsRecords, settingsCheck } from './settings-check.js';

/** The Okta Admin Console's app name (Apps API: the `saasure` first-party app). */
const ADMIN_CONSOLE_APP = 'saasure';

/** Authenticators that resist phishing (Okta: FIDO2 WebAuthn, smart card / PIV). */
const PHISHING_RESISTANT = new Set(['webauthn', 'smart_card_idp']);

const globalSession = settingsCheck({
  key: 'mfa.global_session',
  id: 'okta.mfa.global_session',
  title: 'The global session policy requires a second factor',
  remediation:
    'In every global session policy rule that allows access, require "Multifactor authentication (MFA)".',
  reads: ['policy', 'policy_rule'],
  evaluate(records) {
    const judged = records.book
      .activeRules('OKTA_SIGN_ON')
      .filter(({ rule }) => signOnAllows(rule))
      .map(({ policy, rule }) => {
        const required = objectAt(rule.data, 'actions', 'signon').requireFactor === true;
        return {
          record: label(policy, rule),
          observed: { requireFactor: required, groups: PolicyBook.groupScope(policy) },
          ok: required,
        };
      });
    return judgeEach(
      'policy_rule',
      ['/actions/signon/requireFactor'],
      { requireFactor: true },
      judged,
      'The backup holds no global session policy rule that allows access.',
    );
  },
});

/** Judges the allowing rules of app sign-in policies by whether they ask for two factors. */
function judgeAccessRules(
  records: SettingsRecords,
  policies: readonly ResourceRecord[],
  none: string,
): CheckOutcome {
  const judged = policies.flatMap((policy) =>
    records.book
      .rules(policy.id)
      .filter(appSignOnAllows)
      .map((rule) => ({
        record: label(policy, rule),
        observed: {
          factorMode: objectAt(rule.data, 'actions', 'appSignOn', 'verificationMethod').factorMode ?? null,
        },
        ok: requiresTwoFactors(rule),
      })),
  );
  return judgeEach(
    'policy_rule',
    ['/actions/appSignOn/verificationMethod/factorMode'],
    { factorMode: '2FA' },
    judged,
    none,
  );
}

const appAccess = settingsCheck({
  key: 'mfa.app_access',
  id: 'okta.mfa.app_access',
  title: 'App sign-in policies require two factors',
  remediation:
    'In every app sign-in (authentication) policy rule that allows access, require two factor types.',
  reads: ['policy', 'policy_rule'],
  evaluate(records) {
    return judgeAccessRules(
      records,
      records.book.active('ACCESS_POLICY'),
      'The backup holds no app sign-in policy (Classic Engine org, or none defined).',
    );
  },
});

/** The Admin Console's sign-in policy, from the app and its `app_sign_on_policy` link. */
function adminConsolePolicy(records: SettingsRecords): { app?: ResourceRecord; policy?: ResourceRecord } {
  const app = records.of('app').find((a) => a.data.name === ADMIN_CONSOLE_APP);
  if (!app) return {};
  const link = records.of('app_sign_on_policy').find((l) => l.data.appId === app.id);
  return { app, policy: link ? records.book.policies.get(String(link.data.policyId)) : undefined };
}

const NO_CONSOLE =
  'The backup holds no Okta Admin Console app (saasure) or its sign-in policy: Okta lists it only to some API clients. Check Security > Authentication Policies > Okta Admin Console.';

const adminConsole = settingsCheck({
  key: 'mfa.admin_console',
  id: 'okta.mfa.admin_console',
  title: 'The Okta Admin Console requires two factors',
  remediation: "Require two factor types in every rule of the Okta Admin Console's authentication policy.",
  reads: ['policy', 'policy_rule', 'app', 'app_sign_on_policy'],
  evaluate(records) {
    const { policy } = adminConsolePolicy(records);
    if (!policy) return notInBackup('policy', NO_CONSOLE);
    return judgeAccessRules(records, [policy], 'The Admin Console policy has no rule that allows access.');
  },
});

/** True when an app sign-in rule demands a phishing-resistant possession factor. */
function demandsPhishingResistance(rule: ResourceRecord): boolean {
  const constraints = objectAt(rule.data, 'actions', 'appSignOn', 'verificationMethod').constraints;
  return (
    Array.isArray(constraints) &&
    constraints.some((c) => objectAt(c, 'possession').phishingResistant === 'REQUIRED')
  );
}

const phishingResistantAdmins = settingsCheck({
  key: 'mfa.phishing_resistant_admins',
  id: 'okta.mfa.phishing_resistant_admins',
  title: 'Administrators sign in with a phishing-resistant authenticator',
  remediation:
    'Activate FIDO2 (WebAuthn) or smart cards, and require phishing resistance in the Admin Console policy.',
  reads: ['authenticator', 'policy', 'policy_rule', 'app', 'app_sign_on_policy'],
  evaluate(records) {
    const strong = records
      .of('authenticator')
      .filter((a) => PHISHING_RESISTANT.has(String(a.data.key)) && a.data.status === 'ACTIVE');
    if (strong.length === 0) {
      const all = records.of('authenticator').filter((a) => PHISHING_RESISTANT.has(String(a.data.key)));
      return judgeEach(
        'authenticator',
        ['/key', '/status'],
        { activePhishingResistant: true },
        all.length > 0
          ? all.map((a) => ({ record: a, observed: { key: a.data.key, status: a.data.status }, ok: false }))
          : [
              {
                record: { id: 'webauthn', name: 'Security Key or Biometric (absent)' },
                observed: { status: null },
                ok: false,
              },
            ],
        '',
      );
    }
    const { policy } = adminConsolePolicy(records);
    if (!policy)
      return notInBackup(
        'authenticator',
        `${NO_CONSOLE} Active phishing-resistant authenticators: ${strong.map((a) => a.name).join(', ')}.`,
        strong.map((a) => ({ id: a.id, name: a.name })),
      );
    const judged = records.book
      .rules(policy.id)
      .filter(appSignOnAllows)
      .map((rule) => ({
        record: label(policy, rule),
        observed: { phishingResistant: demandsPhishingResistance(rule) },
        ok: demandsPhishingResistance(rule),
      }));
    return judgeEach(
      'policy_rule',
      ['/actions/appSignOn/verificationMethod/constraints'],
      { phishingResistant: 'REQUIRED' },
      judged,
      'The Admin Console policy has no rule that allows access.',
    );
  },
});

/** Authenticators that do not count as a second factor at enrolment. */
const FIRST_FACTORS = new Set(['okta_password', 'okta_email', 'security_question']);

const adminEnrollment = settingsCheck({
  key: 'mfa.admin_enrollment',
  id: 'okta.mfa.admin_enrollment',
  title: 'Enrolment policies that reach administrators require a second factor',
  remediation:
    'Make a strong authenticator (Okta Verify, FIDO2) "Required" in the enrolment policy that applies to administrators.',
  reads: ['group', 'policy', 'policy_rule', 'admin_role_assignment'],
  keep: (record) => record.type !== 'group' || record.data.type === 'BUILT_IN',
  evaluate(records) {
    const everyone = records.of('group').find((g) => g.data.type === 'BUILT_IN')?.id;
    const adminGroups = new Set(
      records
        .of('admin_role_assignment')
        .filter((a) => a.data.assignmentType === 'GROUP')
        .map((a) => a.id.split(':')[0]),
    );
    const reaching = records.book
      .active('MFA_ENROLL')
      .filter((policy) => PolicyBook.groupScope(policy).some((g) => g === everyone || adminGroups.has(g)));
    const judged = reaching.map((policy) => {
      const authenticators = objectAt(policy.data, 'settings').authenticators;
      const required = (Array.isArray(authenticators) ? authenticators : [])
        .filter((a) => objectAt(a, 'enroll').self === 'REQUIRED')
        .map((a) => String(objectAt(a).key));
      const strong = required.filter((key) => !FIRST_FACTORS.has(key));
      return {
        record: policy,
        observed: { required, groups: PolicyBook.groupScope(policy) },
        ok: strong.length > 0,
      };
    });
    return judgeEach(
      'policy',
      ['/settings/authenticators'],
      { requiredSecondFactor: true },
      judged,
      'No active enrolment policy reaches the administrators.',
    );
  },
});

/** `allowedFor` values that let an authenticator serve sign-in, not only recovery. */
const FOR_SIGN_IN = new Set(['any', 'authentication', 'sso']);
/** Authenticators open to interception or guessing (SP 800-63B 5.1.3.3, restricted; PCI DSS 8.5.1). */
const WEAK_AUTHENTICATORS = new Set(['phone_number', 'security_question']);

const weakFactors = settingsCheck({
  key: 'authenticators.weak_factors',
  id: 'okta.authenticators.weak_factors',
  title: 'No SMS, voice or security question for sign-in',
  remediation: 'Limit Phone and Security Question authenticators to recovery, or deactivate them.',
  reads: ['authenticator'],
  evaluate(records) {
    const judged = records
      .of('authenticator')
      .filter((a) => WEAK_AUTHENTICATORS.has(String(a.data.key)))
      .map((a) => {
        const allowedFor = objectAt(a.data, 'settings').allowedFor ?? null;
        const active = a.data.status === 'ACTIVE';
        return {
          record: a,
          observed: { status: a.data.status, allowedFor },
          ok: !active || !FOR_SIGN_IN.has(String(allowedFor)),
        };
      });
    return judgeEach(
      'authenticator',
      ['/status', '/settings/allowedFor'],
      { signIn: false },
      judged,
      'The backup holds no phone or security question authenticator.',
    );
  },
});

/** MFA checks: global session and app sign-in policies, the Admin Console, enrolment, authenticators. */
export const MFA_CHECKS: readonly Check[] = [
  globalSession,
  appAccess,
  adminConsole,
  phishingResistantAdmins,
  adminEnrollment,
  weakFactors,
];
