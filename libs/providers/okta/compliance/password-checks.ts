import type { Check, CheckParams } from '@libs/compliance/compliance-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { judgeEach, num } from './okta-outcomes.js';
import { objectAt, PolicyBook } from './policy-book.js';
import { type SettingsRecords, settingsCheck } from './settings-check.js';

const POLICY_TYPES = ['policy', 'policy_rule'] as const;
const NONE = 'The backup holds no active password policy.';

/** `settings.password.<section>` of a PASSWORD policy. */
function section(policy: ResourceRecord, name: 'complexity' | 'age' | 'lockout'): Record<string, unknown> {
  return objectAt(policy.data, 'settings', 'password', name);
}

/** A password policy's label in evidence: its name and the groups it applies to. */
function scoped(policy: ResourceRecord, observed: Record<string, unknown>): Record<string, unknown> {
  return { ...observed, groups: PolicyBook.groupScope(policy) };
}

/** Judges every ACTIVE password policy with `judge`, which returns the values read and a verdict. */
function eachPasswordPolicy(
  records: SettingsRecords,
  pointers: string[],
  expected: unknown,
  judge: (policy: ResourceRecord) => { observed: Record<string, unknown>; ok: boolean },
) {
  const judged = records.book.active('PASSWORD').map((policy) => {
    const { observed, ok } = judge(policy);
    return { record: policy, observed: scoped(policy, observed), ok };
  });
  return judgeEach('policy', pointers, expected, judged, NONE);
}

/**
 * Minimum length per password policy. With `minLengthWithMfa`, the lower length applies when
 * every sign-in path requires a second factor (SP 800-63B-4, CIS Controls 5.2).
 */
const minLength = settingsCheck({
  key: 'password.min_length',
  id: 'okta.password.min_length',
  title: 'Password policies require a minimum length',
  remediation: 'Raise "Minimum length" in every password policy (Security > Authenticators > Password).',
  reads: POLICY_TYPES,
  evaluate(records, params: CheckParams) {
    const mfa = params.minLengthWithMfa !== undefined && records.book.mfaEverywhere();
    const required = mfa ? num(params, 'minLengthWithMfa') : num(params, 'minLength');
    return eachPasswordPolicy(
      records,
      ['/settings/password/complexity/minLength'],
      { minLength: required, mfaRequiredEverywhere: records.book.mfaEverywhere() },
      (policy) => {
        const length = Number(section(policy, 'complexity').minLength ?? 0);
        return { observed: { minLength: length }, ok: length >= required };
      },
    );
  },
});

/** Character classes per password policy (`requireDigit`, `requireLetter`). */
const complexity = settingsCheck({
  key: 'password.complexity',
  id: 'okta.password.complexity',
  title: 'Password policies require letters and digits',
  remediation: 'Require at least one number and one lower- or upper-case letter in every password policy.',
  reads: POLICY_TYPES,
  evaluate(records, params) {
    return eachPasswordPolicy(
      records,
      [
        '/settings/password/complexity/minNumber',
        '/settings/password/complexity/minLowerCase',
        '/settings/password/complexity/minUpperCase',
      ],
      { digit: params.requireDigit === true, letter: params.requireLetter === true },
      (policy) => {
        const c = section(policy, 'complexity');
        const digit = Number(c.minNumber ?? 0) >= 1;
        const letter = Number(c.minLowerCase ?? 0) >= 1 || Number(c.minUpperCase ?? 0) >= 1;
        const ok = (params.requireDigit !== true || digit) && (params.requireLetter !== true || letter);
        return {
          observed: {
            minNumber: c.minNumber ?? 0,
            minLowerCase: c.minLowerCase ?? 0,
            minUpperCase: c.minUpperCase ?? 0,
          },
          ok,
        };
      },
    );
  },
});

/** Password history per policy (`age.historyCount`). */
const history = settingsCheck({
  key: 'password.history',
  id: 'okta.password.history',
  title: 'Password policies remember previous passwords',
  remediation: 'Set "Enforce password history" to at least the required number of passwords.',
  reads: POLICY_TYPES,
  evaluate(records, params) {
    const required = num(params, 'minHistory');
    return eachPasswordPolicy(
      records,
      ['/settings/password/age/historyCount'],
      { historyCount: required },
      (policy) => {
        const count = Number(section(policy, 'age').historyCount ?? 0);
        return { observed: { historyCount: count }, ok: count >= required };
      },
    );
  },
});

/**
 * Maximum password age (`age.maxAgeDays`, 0 = never expires). `maxAgeDays`: expiry within that
 * many days, not applicable when `onlyWithoutMfa` and MFA is required everywhere (PCI DSS 8.3.9);
 * `noExpiry`: passwords must not expire (SP 800-63B).
 */
const maxAge = settingsCheck({
  key: 'password.max_age',
  id: 'okta.password.max_age',
  title: 'Password expiry follows the framework',
  remediation: 'Set "Password expires after" in every password policy as the framework asks.',
  reads: POLICY_TYPES,
  evaluate(records, params) {
    const pointers = ['/settings/password/age/maxAgeDays'];
    if (params.noExpiry === true)
      return eachPasswordPolicy(records, pointers, { maxAgeDays: 0 }, (policy) => {
        const days = Number(section(policy, 'age').maxAgeDays ?? 0);
        return { observed: { maxAgeDays: days }, ok: days === 0 };
      });
    const limit = num(params, 'maxAgeDays');
    const outcome = eachPasswordPolicy(records, pointers, { maxAgeDays: limit }, (policy) => {
      const days = Number(section(policy, 'age').maxAgeDays ?? 0);
      return { observed: { maxAgeDays: days }, ok: days >= 1 && days <= limit };
    });
    if (params.onlyWithoutMfa === true && records.book.mfaEverywhere())
      return {
        ...outcome,
        status: 'not_applicable',
        note: 'Every sign-in requires a second factor: the password is not the only factor.',
      };
    return outcome;
  },
});

/**
 * Lockout per policy: `lockout.maxAttempts` between 1 and `maxAttempts` (0 turns lockout off),
 * and `autoUnlockMinutes` 0 (locked until an admin unlocks) or at least `minLockoutMinutes`.
 */
const lockout = settingsCheck({
  key: 'password.lockout',
  id: 'okta.password.lockout',
  title: 'Accounts lock after repeated failed sign-ins',
  remediation: 'Set "Lock out user after N unsuccessful attempts" and the unlock delay as required.',
  reads: POLICY_TYPES,
  evaluate(records, params) {
    const maxAttempts = num(params, 'maxAttempts');
    const minMinutes = num(params, 'minLockoutMinutes');
    return eachPasswordPolicy(
      records,
      ['/settings/password/lockout/maxAttempts', '/settings/password/lockout/autoUnlockMinutes'],
      { maxAttempts, minLockoutMinutes: minMinutes, note: 'autoUnlockMinutes 0 = until an admin unlocks' },
      (policy) => {
        const l = section(policy, 'lockout');
        const attempts = Number(l.maxAttempts ?? 0);
        const unlock = Number(l.autoUnlockMinutes ?? 0);
        const ok = attempts >= 1 && attempts <= maxAttempts && (unlock === 0 || unlock >= minMinutes);
        return { observed: { maxAttempts: attempts, autoUnlockMinutes: unlock }, ok };
      },
    );
  },
});

/** Common passwords refused (`complexity.dictionary.common.exclude`). */
const commonExcluded = settingsCheck({
  key: 'password.common_excluded',
  id: 'okta.password.common_excluded',
  title: 'Password policies refuse common passwords',
  remediation: 'Tick "Restrict use of common passwords" in every password policy.',
  reads: POLICY_TYPES,
  evaluate(records) {
    return eachPasswordPolicy(
      records,
      ['/settings/password/complexity/dictionary/common/exclude'],
      { exclude: true },
      (policy) => {
        const exclude = objectAt(section(policy, 'complexity'), 'dictionary', 'common').exclude === true;
        return { observed: { exclude }, ok: exclude };
      },
    );
  },
});

/** Factors open to interception or guessing, as password recovery factors. */
const WEAK_RECOVERY = ['okta_sms', 'okta_call', 'recovery_question'];

/** No password recovery by SMS, voice call or security question (SP 800-63B section 6.1.2.3). */
const recoveryFactors = settingsCheck({
  key: 'password.recovery_factors',
  id: 'okta.password.recovery_factors',
  title: 'Password recovery does not rely on SMS, voice or security questions',
  remediation:
    'Turn off SMS, voice call and security question as recovery factors; recover by email or Okta Verify.',
  reads: POLICY_TYPES,
  evaluate(records) {
    return eachPasswordPolicy(
      records,
      WEAK_RECOVERY.map((f) => `/settings/recovery/factors/${f}/status`),
      { active: [] },
      (policy) => {
        const factors = objectAt(policy.data, 'settings', 'recovery', 'factors');
        const active = WEAK_RECOVERY.filter((factor) => objectAt(factors, factor).status === 'ACTIVE');
        return { observed: { active }, ok: active.length === 0 };
      },
    );
  },
});

/** Password policy checks (Policy API, PASSWORD policies' `settings`). */
export const PASSWORD_CHECKS: readonly Check[] = [
  minLength,
  complexity,
  history,
  maxAge,
  lockout,
  commonExcluded,
  recoveryFactors,
];
