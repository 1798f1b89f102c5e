import type { ResourceRecord } from '@libs/records/resource-record.js';
import { member, strings } from './entra-outcomes.js';

/**
 * The directory roles CISA's SCuBA baseline calls highly privileged (MS.AAD.7 "highly privileged
 * roles", ScubaGear's default list), by role template id (Microsoft "Microsoft Entra built-in
 * roles"): a built-in role's definition id is its template id.
 */
export const HIGHLY_PRIVILEGED_ROLES: Readonly<Record<string, string>> = {
  '62e90394-69f5-4237-9190-012177145e10': 'Global Administrator',
  'e8611ab8-c189-46e8-94e1-60213ab1f814': 'Privileged Role Administrator',
  'fe930be7-5e62-47db-91af-98c3a49a38b1': 'User Administrator',
  'f28a1f50-f6e7-4571-818b-6a12f2af6b6c': 'SharePoint Administrator',
  '29232cdf-9323-42fd-ade2-1d097af3e4de': 'Exchange Administrator',
  '8ac3fc64-6eca-42ea-9e69-59f4c7b60eb2': 'Hybrid Identity Administrator',
  '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3': 'Application Administrator',
  '158c047a-c907-4556-b7ef-446551a6b5f7': 'Cloud Application Administrator',
};

/** Global Administrator's role template id. */
export const GLOBAL_ADMINISTRATOR = '62e90394-69f5-4237-9190-012177145e10';

/**
 * Phishing-resistant methods (MS.AAD.3.1v1: FIDO2, Windows Hello for Business, certificate-based
 * MFA): an authentication strength is phishing-resistant when it allows nothing else.
 */
const PHISHING_RESISTANT = new Set(['windowsHelloForBusiness', 'fido2', 'x509CertificateMultiFactor']);

/** A conditional access policy's shape, as far as the checks read it (Graph v1.0 `conditionalAccessPolicy`). */
export interface PolicyView {
  record: ResourceRecord;
  state: string;
  users: Record<string, unknown>;
  applications: Record<string, unknown>;
  conditions: Record<string, unknown>;
  builtInControls: string[];
  operator: string;
  /** the allowed combinations of the policy's authentication strength, null without one */
  strength: string[] | null;
}

/** Reads a policy; `strengths` are the backup's authentication strength policies by id. */
export function viewOf(record: ResourceRecord, strengths: ReadonlyMap<string, string[]>): PolicyView {
  const conditions = (member(record.data, 'conditions') ?? {}) as Record<string, unknown>;
  const grant = member(record.data, 'grantControls');
  const strengthRef = member(grant, 'authenticationStrength');
  const combos = member(strengthRef, 'allowedCombinations');
  const strengthId = member(strengthRef, 'id');
  const strength =
    strengthRef === null || strengthRef === undefined
      ? null
      : Array.isArray(combos)
        ? strings(combos)
        : (strengths.get(String(strengthId)) ?? []);
  return {
    record,
    state: String(record.data.state),
    users: (member(conditions, 'users') ?? {}) as Record<string, unknown>,
    applications: (member(conditions, 'applications') ?? {}) as Record<string, unknown>,
    conditions,
    builtInControls: strings(member(grant, 'builtInControls')),
    operator: String(member(grant, 'operator') ?? 'OR'),
    strength,
  };
}

/**
 * Why a policy does not enforce on every user and every cloud app, or null when it does
 * (ScubaGear's rules): only `enabled` counts (report-only `enabledForReportingButNotEnforced`
 * and `disabled` enforce nothing); `includeUsers` must hold `All` and `includeApplications`
 * `All`, with no user, group, role, guest or application excluded.
 */
export function gapsForAllUsers(policy: PolicyView): string[] {
  return [...stateGap(policy), ...userGaps(policy, true), ...appGaps(policy)];
}

function stateGap(policy: PolicyView): string[] {
  if (policy.state === 'enabled') return [];
  return policy.state === 'enabledForReportingButNotEnforced'
    ? ['report-only (enabledForReportingButNotEnforced): not enforced']
    : [`state ${policy.state}: not enforced`];
}

function exclusions(users: Record<string, unknown>): string[] {
  const gaps: string[] = [];
  for (const key of ['excludeUsers', 'excludeGroups', 'excludeRoles'])
    if (strings(users[key]).length > 0) gaps.push(`${key}: ${strings(users[key]).join(', ')}`);
  const guests = users.excludeGuestsOrExternalUsers;
  if (guests !== null && guests !== undefined) gaps.push('excludes guests or external users');
  return gaps;
}

function userGaps(policy: PolicyView, allUsers: boolean): string[] {
  const gaps = exclusions(policy.users);
  if (allUsers && !strings(policy.users.includeUsers).includes('All'))
    gaps.unshift('does not include All users');
  return gaps;
}

function appGaps(policy: PolicyView): string[] {
  const gaps: string[] = [];
  if (!strings(policy.applications.includeApplications).includes('All'))
    gaps.push('does not include All cloud apps');
  const excluded = strings(policy.applications.excludeApplications);
  if (excluded.length > 0) gaps.push(`excludeApplications: ${excluded.join(', ')}`);
  return gaps;
}

/**
 * Why a policy does not enforce on every highly privileged role, or null when it does: enabled,
 * on all cloud apps, on every role of {@link HIGHLY_PRIVILEGED_ROLES} named in `includeRoles`
 * (MS.AAD.3.6v1 as ScubaGear's Rego reads it: a policy on All users does not count), or, with
 * `allUsersCovers` (CIS M365 5.2.2.1), on All users; excluding nobody.
 */
export function gapsForPrivilegedRoles(policy: PolicyView, allUsersCovers: boolean): string[] {
  const gaps = [...stateGap(policy), ...userGaps(policy, false), ...appGaps(policy)];
  if (allUsersCovers && strings(policy.users.includeUsers).includes('All')) return gaps;
  const included = new Set(strings(policy.users.includeRoles));
  const missing = Object.entries(HIGHLY_PRIVILEGED_ROLES).filter(([id]) => !included.has(id));
  if (missing.length > 0) gaps.push(`does not include ${missing.map(([, name]) => name).join(', ')}`);
  return gaps;
}

/** Whether the grant blocks access. */
export function blocks(policy: PolicyView): boolean {
  return policy.builtInControls.includes('block');
}

/**
 * Whether every way through the grant satisfies `ok`: with `AND` one control suffices, with
 * `OR` each alternative must (an `mfa` OR `compliantDevice` grant does not require MFA).
 */
function grantRequires(policy: PolicyView, ok: (control: string) => boolean): boolean {
  const controls = [
    ...policy.builtInControls,
    ...(policy.strength === null ? [] : ['authenticationStrength']),
  ];
  if (controls.length === 0) return false;
  return policy.operator === 'AND' ? controls.some(ok) : controls.every(ok);
}

/**
 * Authentication method combinations that are multifactor (ScubaGear's `IsGeneralMFA`, Rego
 * utils/AAD.rego, with the phishing-resistant ones): a strength allowing anything else (a
 * `password` alone, an empty list) does not require MFA.
 */
const MFA_COMBINATIONS = new Set([
  ...PHISHING_RESISTANT,
  'deviceBasedPush',
  'temporaryAccessPassOneTime',
  'temporaryAccessPassMultiUse',
  'password,microsoftAuthenticatorPush',
  'password,softwareOath',
  'password,hardwareOath',
  'password,sms',
  'password,voice',
  'federatedMultiFactor',
  'microsoftAuthenticatorPush,federatedSingleFactor',
  'softwareOath,federatedSingleFactor',
  'hardwareOath,federatedSingleFactor',
  'sms,federatedSingleFactor',
  'voice,federatedSingleFactor',
]);

/** Whether the policy's authentication strength allows multifactor combinations only (and some). */
function strengthIsMfa(policy: PolicyView): boolean {
  const strength = policy.strength ?? [];
  return strength.length > 0 && strength.every((combination) => MFA_COMBINATIONS.has(combination));
}

/**
 * Whether the grant requires MFA: the `mfa` control, or an authentication strength of
 * multifactor combinations only (phishing-resistant ones included: they are MFA too).
 */
export function requiresMfa(policy: PolicyView): boolean {
  return grantRequires(
    policy,
    (c) => c === 'mfa' || (c === 'authenticationStrength' && strengthIsMfa(policy)),
  );
}

/** Whether the grant requires an authentication strength of phishing-resistant methods only. */
export function requiresPhishingResistant(policy: PolicyView): boolean {
  const strength = policy.strength;
  if (strength === null || strength.length === 0) return false;
  if (!strength.every((combination) => PHISHING_RESISTANT.has(combination))) return false;
  return grantRequires(policy, (c) => c === 'authenticationStrength');
}

/**
 * Whether the grant requires a compliant or a hybrid joined device, one of the two (MS.AAD.3.7v1
 * as ScubaGear's Rego reads it, and the baseline's instructions set it): exactly the controls
 * `compliantDevice` and `domainJoinedDevice` with the operator `OR`.
 */
export function requiresManagedDevice(policy: PolicyView): boolean {
  const controls = new Set(policy.builtInControls);
  return (
    policy.operator === 'OR' &&
    controls.size === 2 &&
    controls.has('compliantDevice') &&
    controls.has('domainJoinedDevice') &&
    policy.strength === null
  );
}

/**
 * Whether the grant names a managed device control, `compliantDevice` or `domainJoinedDevice`
 * (MS.AAD.3.8v1: ScubaGear counts either one, whatever else the grant holds).
 */
export function namesManagedDevice(policy: PolicyView): boolean {
  return policy.builtInControls.some((c) => c === 'compliantDevice' || c === 'domainJoinedDevice');
}
