import { type ChangeFacts, valueAt } from '@libs/diff/change-facts.js';

/*
 * Tests that a security setting got weaker between `before` and `after`. Each names the Okta
 * fields it reads (Okta Policy API: "Password policy settings", "Authenticator enrollment policy
 * settings", "Okta sign-on policy rule actions", "Access policy rule actions").
 */

const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A minimum that went down (minLength 12 -> 8, minSymbol 1 -> 0). */
function lowered(facts: ChangeFacts, path: string): boolean {
  const before = asNumber(valueAt(facts.before, path));
  const after = asNumber(valueAt(facts.after, path));
  return before !== undefined && (after === undefined || after < before);
}

/** A limit that went up or was lifted, 0 meaning "no limit" (maxAttempts 5 -> 10 or 0). */
function raisedOrLifted(facts: ChangeFacts, path: string): boolean {
  const before = asNumber(valueAt(facts.before, path));
  const after = asNumber(valueAt(facts.after, path));
  if (before === undefined || before === 0) return false;
  return after === undefined || after === 0 || after > before;
}

/** A flag that was on and no longer is. */
function switchedOff(facts: ChangeFacts, path: string): boolean {
  return valueAt(facts.before, path) === true && valueAt(facts.after, path) !== true;
}

const PASSWORD = 'settings.password';

/**
 * A PASSWORD policy whose complexity, history, age or lockout got weaker (Okta Policy API,
 * PasswordPolicyPasswordSettings).
 */
export function passwordPolicyWeakened(facts: ChangeFacts): boolean {
  return (
    ['minLength', 'minLowerCase', 'minUpperCase', 'minNumber', 'minSymbol'].some((field) =>
      lowered(facts, `${PASSWORD}.complexity.${field}`),
    ) ||
    switchedOff(facts, `${PASSWORD}.complexity.excludeUsername`) ||
    lowered(facts, `${PASSWORD}.age.historyCount`) ||
    lowered(facts, `${PASSWORD}.age.minAgeMinutes`) ||
    raisedOrLifted(facts, `${PASSWORD}.age.maxAgeDays`) ||
    raisedOrLifted(facts, `${PASSWORD}.lockout.maxAttempts`)
  );
}

const REQUIRED = 'REQUIRED';

/** Authenticators (or legacy factors) whose enrolment was REQUIRED, by key. */
function requiredEnrolments(data: Record<string, unknown> | undefined): Set<string> {
  const required = new Set<string>();
  const authenticators = valueAt(data, 'settings.authenticators');
  if (Array.isArray(authenticators)) {
    for (const entry of authenticators as Array<Record<string, unknown>>) {
      if (valueAt(entry, 'enroll.self') === REQUIRED) required.add(String(entry.key));
    }
  }
  const factors = valueAt(data, 'settings.factors');
  if (typeof factors === 'object' && factors !== null) {
    for (const [key, factor] of Object.entries(factors as Record<string, Record<string, unknown>>)) {
      if (valueAt(factor, 'enroll.self') === REQUIRED) required.add(key);
    }
  }
  return required;
}

/** An MFA_ENROLL policy in which an authenticator is no longer required. */
export function mfaEnrollmentWeakened(facts: ChangeFacts): boolean {
  const after = requiredEnrolments(facts.after);
  return [...requiredEnrolments(facts.before)].some((key) => !after.has(key));
}

/**
 * A sign-on or access policy rule that lets more through: DENY became ALLOW, a second factor is
 * no longer required (requireFactor, factorMode 2FA -> 1FA), or a network zone condition was
 * dropped (Okta Policy API: OktaSignOnPolicyRuleSignonActions, AccessPolicyRuleApplicationSignOn).
 */
export function signOnRuleWeakened(facts: ChangeFacts): boolean {
  const access = ['actions.signon.access', 'actions.appSignOn.access'];
  return (
    access.some((path) => valueAt(facts.before, path) === 'DENY' && valueAt(facts.after, path) === 'ALLOW') ||
    switchedOff(facts, 'actions.signon.requireFactor') ||
    (valueAt(facts.before, 'actions.appSignOn.verificationMethod.factorMode') === '2FA' &&
      valueAt(facts.after, 'actions.appSignOn.verificationMethod.factorMode') !== '2FA') ||
    (valueAt(facts.before, 'conditions.network') !== undefined &&
      valueAt(facts.before, 'conditions.network.connection') !== 'ANYWHERE' &&
      (valueAt(facts.after, 'conditions.network') === undefined ||
        valueAt(facts.after, 'conditions.network.connection') === 'ANYWHERE'))
  );
}

/** Values a rule or policy opens to everyone with (Okta authorization server policy conditions). */
const OPEN_TO_ALL = new Set(['ALL_CLIENTS', 'EVERYONE', '*']);

/** Every string in an include list at `path`. */
function included(data: Record<string, unknown> | undefined, path: string): Set<string> {
  const list = valueAt(data, path);
  return new Set(Array.isArray(list) ? list.map(String) : []);
}

const AUTH_SERVER_INCLUDES = [
  'conditions.clients.include',
  'conditions.people.groups.include',
  'conditions.people.users.include',
  'conditions.scopes.include',
  'conditions.grantTypes.include',
];

/**
 * An authorization server policy or rule that now admits all clients, everyone, every scope, or
 * more grant types than before (Okta Authorization Server Policies API).
 */
export function authorizationServerAccessOpened(facts: ChangeFacts): boolean {
  return AUTH_SERVER_INCLUDES.some((path) => {
    const before = included(facts.before, path);
    const after = [...included(facts.after, path)].filter((value) => !before.has(value));
    const moreGrants = facts.before !== undefined && path.endsWith('grantTypes.include');
    return after.some((value) => OPEN_TO_ALL.has(value) || moreGrants);
  });
}
