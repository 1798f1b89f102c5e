import type { CheckParams } from '@libs/compliance/compliance-types.js';
import { ResourceSample } from '@libs/compliance/resource-sample.js';
import { CONDITIONAL_ACCESS_READS, mfaForAllUsers } from './conditional-access-checks.js';
import {
  configCheck,
  type EntraCheck,
  type EntraRecords,
  member,
  offendingOutcome,
  outsideBackup,
  settingOutcome,
  strings,
} from './entra-outcomes.js';

/** Graph's value of `passwordValidityPeriodInDays` for passwords that never expire. */
const NEVER_EXPIRES = 2_147_483_647;

/** Guest user role ids (Microsoft "Restrict guest access permissions"): limited and restricted access. */
const GUEST_ROLES: Readonly<Record<string, string>> = {
  'a0b1b346-4d3e-4e8b-98f8-753987be4970': 'same access as members',
  '10dae51f-b6af-4016-8d66-8c2a99b929b3': 'limited access',
  '2af84b1e-32c8-42b7-82bc-daa82404023b': 'restricted access',
};

const authorization = (records: EntraRecords) => records.one('authorization_policy');
const defaults = (records: EntraRecords) =>
  member(authorization(records)?.data, 'defaultUserRolePermissions');

/**
 * MS.AAD.6.1v1: user passwords SHALL NOT expire, on every verified domain (`noExpiry`); with a
 * framework's `maxAgeDays` instead, passwords change at least that often, unless `onlyWithoutMfa`
 * and MFA is required of all users.
 */
const passwordExpiry: EntraCheck = configCheck({
  key: 'password.max_age',
  id: 'entra.password.expiry',
  policy: 'MS.AAD.6.1v1',
  title: 'Password expiration follows the requirement',
  remediation:
    'Set the password expiration policy of each verified domain (Microsoft 365 admin center > Settings > Password expiration policy).',
  reads: ['domain', ...CONDITIONAL_ACCESS_READS],
  evaluate(records, params: CheckParams) {
    const domains = records.of('domain').filter((d) => d.data.isVerified === true);
    const noExpiry = params.noExpiry === true || params.maxAgeDays === undefined;
    const maxAge = Number(params.maxAgeDays);
    const mfa = params.onlyWithoutMfa === true && mfaForAllUsers(records);
    const sample = new ResourceSample();
    for (const domain of domains) {
      const days = Number(domain.data.passwordValidityPeriodInDays ?? NEVER_EXPIRES);
      const ok = noExpiry ? days >= NEVER_EXPIRES : mfa || days <= maxAge;
      if (!ok) sample.add(domain.id, domain.name, { passwordValidityPeriodInDays: days });
    }
    return {
      ...offendingOutcome(
        'domain',
        ['/passwordValidityPeriodInDays', '/isVerified'],
        noExpiry
          ? { passwordValidityPeriodInDays: NEVER_EXPIRES }
          : { maxAgeDays: maxAge, mfaExempts: params.onlyWithoutMfa === true },
        sample,
        {
          verifiedDomains: domains.length,
          ...(params.onlyWithoutMfa === true ? { mfaForAllUsers: mfa } : {}),
        },
      ),
      ...(domains.length === 0
        ? { status: 'not_applicable' as const, note: 'The backup holds no verified domain.' }
        : {}),
    };
  },
});

/** MS.AAD.8.1v1: guest users SHOULD have limited or restricted access to directory objects. */
const guestAccess: EntraCheck = configCheck({
  key: 'guests.access_restricted',
  id: 'entra.guests.access_restricted',
  policy: 'MS.AAD.8.1v1',
  title: 'Guest users have limited or restricted access',
  remediation:
    'Set guest user access to "limited access" or "restricted access" (External collaboration settings).',
  reads: ['authorization_policy'],
  evaluate(records) {
    const role = String(authorization(records)?.data.guestUserRoleId ?? '');
    return settingOutcome(
      authorization(records),
      'authorization_policy',
      ['/guestUserRoleId'],
      { guestUserRoleId: role, access: GUEST_ROLES[role] ?? 'unknown' },
      { access: ['limited access', 'restricted access'] },
      role === '10dae51f-b6af-4016-8d66-8c2a99b929b3' || role === '2af84b1e-32c8-42b7-82bc-daa82404023b',
    );
  },
});

/** MS.AAD.8.2v1: only users with the Guest Inviter role (and admins) SHOULD invite guests. */
const guestInvites: EntraCheck = configCheck({
  key: 'guests.invite_restricted',
  id: 'entra.guests.invite_restricted',
  policy: 'MS.AAD.8.2v1',
  title: 'Guest invitations are limited to admins and the Guest Inviter role',
  remediation:
    'Set "Guest invite restrictions" to "Only users assigned to specific admin roles can invite guest users" (or stricter).',
  reads: ['authorization_policy'],
  evaluate(records) {
    const from = authorization(records)?.data.allowInvitesFrom ?? null;
    return settingOutcome(
      authorization(records),
      'authorization_policy',
      ['/allowInvitesFrom'],
      { allowInvitesFrom: from },
      { allowInvitesFrom: ['adminsAndGuestInviters', 'none'] },
      from === 'adminsAndGuestInviters' || from === 'none',
    );
  },
});

/** MS.AAD.8.3v1: guest invites SHOULD be allowed only to specific external domains. */
const guestDomains = outsideBackup({
  key: 'guests.invite_domains',
  id: 'entra.guests.invite_domains',
  policy: 'MS.AAD.8.3v1',
  title: 'Guest invitations are limited to allowed domains',
  remediation:
    'In External collaboration settings > Collaboration restrictions, allow invitations only to the domains the agency authorised.',
  resourceType: 'b2b_management_policy',
  note: 'The collaboration restrictions (allow and deny domain lists) are not in Graph v1.0, so no backup holds them: review them in the Entra admin center (External collaboration settings), or read them from Graph beta /policies/b2bManagementPolicies with Policy.Read.All.',
});

/** CIS Microsoft 365 Foundations 5.1.2.3: non-admin users cannot create tenants. */
const tenantCreation: EntraCheck = configCheck({
  key: 'users.tenant_creation',
  id: 'entra.users.tenant_creation',
  policy: 'CIS M365 5.1.2.3',
  title: 'Non-admin users cannot create tenants',
  remediation: 'Set "Restrict non-admin users from creating tenants" to Yes (User settings).',
  reads: ['authorization_policy'],
  evaluate(records) {
    const allowed = member(defaults(records), 'allowedToCreateTenants') ?? null;
    return settingOutcome(
      authorization(records),
      'authorization_policy',
      ['/defaultUserRolePermissions/allowedToCreateTenants'],
      { allowedToCreateTenants: allowed },
      { allowedToCreateTenants: false },
      allowed === false,
    );
  },
});

/** CIS Microsoft 365 Foundations 5.1.2.6: LinkedIn account connections are disabled. */
const linkedIn = outsideBackup({
  key: 'users.linkedin_connections',
  id: 'entra.users.linkedin_connections',
  policy: 'CIS M365 5.1.2.6',
  title: 'LinkedIn account connections are disabled',
  remediation: 'Set "LinkedIn account connections" to No (User settings).',
  resourceType: 'user_settings',
  note: 'The LinkedIn account connections setting has no Microsoft Graph API (no permission reads it): review it in the Entra admin center (Users > User settings).',
});

/** CIS Microsoft 365 Foundations 5.2.4.1: self-service password reset is enabled for all users. */
const selfServiceReset = outsideBackup({
  key: 'password.self_service_reset',
  id: 'entra.password.self_service_reset',
  policy: 'CIS M365 5.2.4.1',
  title: 'Self-service password reset is enabled for all users',
  remediation: 'Set "Self service password reset enabled" to All (Password reset > Properties).',
  resourceType: 'sspr_policy',
  note: "Graph v1.0 exposes self-service password reset only for administrators (authorizationPolicy allowedToUseSSPR); the users' setting has no Graph API: review it in the Entra admin center (Password reset > Properties).",
});

/** Users with no sign-in within the period (CISA SCuBA leaves it to the agency): not in a backup. */
const inactiveUsers = outsideBackup({
  key: 'users.inactive',
  id: 'entra.users.inactive',
  policy: 'CIS Controls 5.3',
  title: 'Inactive accounts are disabled',
  remediation: 'Disable accounts with no sign-in within the period (access reviews for inactive users).',
  resourceType: 'user',
  note: "The backup does not collect users' sign-in activity (signInActivity): it needs AuditLog.Read.All and Entra ID P1; review inactive users in the Entra admin center or with access reviews.",
});

/** Checks of tenant-wide settings: password expiry, guests, user settings (SCuBA MS.AAD.6 and 8, CIS Microsoft 365 5.1). */
export const TENANT_CHECKS: readonly EntraCheck[] = [
  passwordExpiry,
  guestAccess,
  guestInvites,
  guestDomains,
  tenantCreation,
  linkedIn,
  selfServiceReset,
  inactiveUsers,
];

/**
 * The permission grant policies of the default user role (`ManagePermissionGrantsForSelf.*`:
 * user consent, `ManagePermissionGrantsForOwnedResource.*`: group owner consent): Graph v1.0's
 * `defaultUserRolePermissions.permissionGrantPoliciesAssigned`, or beta's
 * `permissionGrantPolicyIdsAssignedToDefaultUserRole`; null when the record holds neither.
 */
export function grantPolicies(records: EntraRecords): string[] | null {
  const v1 = member(defaults(records), 'permissionGrantPoliciesAssigned');
  const beta = authorization(records)?.data.permissionGrantPolicyIdsAssignedToDefaultUserRole;
  const assigned = Array.isArray(v1) ? v1 : beta;
  return Array.isArray(assigned) ? strings(assigned) : null;
}
