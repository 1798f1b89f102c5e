import { configCheck, type EntraCheck, manualOutcome, member, settingOutcome } from './entra-outcomes.js';
import { grantPolicies } from './tenant-checks.js';

/** The template of the "Consent Policy Settings" group setting (Microsoft "Group settings"). */
const CONSENT_SETTINGS_TEMPLATE = 'dffd5d46-495d-40a9-8e21-954ff55e198a';

/** Why a consent check cannot judge a policy that does not say which grant policies users hold. */
const NO_GRANT_POLICIES = manualOutcome(
  'authorization_policy',
  'The backed-up authorization policy does not say which permission grant policies the default user role holds (defaultUserRolePermissions.permissionGrantPoliciesAssigned): review consent settings in the Entra admin center.',
);

/** MS.AAD.5.1v1: only administrators SHALL be allowed to register applications. */
const userRegistration: EntraCheck = configCheck({
  key: 'apps.user_registration',
  id: 'entra.apps.user_registration',
  policy: 'MS.AAD.5.1v1',
  title: 'Only administrators can register applications',
  remediation: 'Set "Users can register applications" to No (User settings).',
  reads: ['authorization_policy'],
  evaluate(records) {
    const policy = records.one('authorization_policy');
    const allowed = member(policy?.data.defaultUserRolePermissions, 'allowedToCreateApps') ?? null;
    return settingOutcome(
      policy,
      'authorization_policy',
      ['/defaultUserRolePermissions/allowedToCreateApps'],
      { allowedToCreateApps: allowed },
      { allowedToCreateApps: false },
      allowed === false,
    );
  },
});

/**
 * MS.AAD.5.2v1: only administrators SHALL consent to applications (CIS Microsoft 365 5.1.5.1):
 * the default user role holds no `ManagePermissionGrantsForSelf.*` permission grant policy.
 */
const userConsent: EntraCheck = configCheck({
  key: 'apps.user_consent',
  id: 'entra.apps.user_consent',
  policy: 'MS.AAD.5.2v1',
  title: 'Only administrators can consent to applications',
  remediation:
    'Set user consent for applications to "Do not allow user consent" (Enterprise apps > Consent and permissions).',
  reads: ['authorization_policy'],
  evaluate(records) {
    const assigned = grantPolicies(records);
    if (assigned === null && records.one('authorization_policy')) return NO_GRANT_POLICIES;
    const self = (assigned ?? []).filter((id) => id.startsWith('ManagePermissionGrantsForSelf.'));
    return settingOutcome(
      records.one('authorization_policy'),
      'authorization_policy',
      ['/defaultUserRolePermissions/permissionGrantPoliciesAssigned'],
      { userConsentPolicies: self },
      { userConsentPolicies: [] },
      self.length === 0,
    );
  },
});

/** MS.AAD.5.3v1: an admin consent workflow SHALL be configured, with reviewers. */
const adminConsentWorkflow: EntraCheck = configCheck({
  key: 'apps.admin_consent_workflow',
  id: 'entra.apps.admin_consent_workflow',
  policy: 'MS.AAD.5.3v1',
  title: 'An admin consent workflow is configured',
  remediation:
    'Turn on "Users can request admin consent to apps they are unable to consent to" and name reviewers (Enterprise apps > Admin consent settings).',
  reads: ['admin_consent_request_policy'],
  evaluate(records) {
    const policy = records.one('admin_consent_request_policy');
    const reviewers = Array.isArray(policy?.data.reviewers) ? policy.data.reviewers.length : 0;
    return settingOutcome(
      policy,
      'admin_consent_request_policy',
      ['/isEnabled', '/reviewers'],
      { isEnabled: policy?.data.isEnabled ?? null, reviewers },
      { isEnabled: true, reviewers: '1 or more' },
      policy?.data.isEnabled === true && reviewers > 0,
    );
  },
});

/**
 * MS.AAD.5.4v1: group owners SHALL NOT consent to applications: no
 * `ManagePermissionGrantsForOwnedResource.*` policy on the default user role, and the "Consent
 * Policy Settings" group setting, when present, does not enable group-specific consent.
 */
const groupOwnerConsent: EntraCheck = configCheck({
  key: 'apps.group_owner_consent',
  id: 'entra.apps.group_owner_consent',
  policy: 'MS.AAD.5.4v1',
  title: 'Group owners cannot consent to applications',
  remediation:
    'Set group owner consent to "Do not allow group owner consent" (Enterprise apps > Consent and permissions > User consent settings).',
  reads: ['authorization_policy', 'group_setting'],
  evaluate(records) {
    const assigned = grantPolicies(records);
    if (assigned === null && records.one('authorization_policy')) return NO_GRANT_POLICIES;
    const owned = (assigned ?? []).filter((id) => id.startsWith('ManagePermissionGrantsForOwnedResource.'));
    const setting = records
      .of('group_setting')
      .find(
        (s) =>
          s.data.templateId === CONSENT_SETTINGS_TEMPLATE || s.data.displayName === 'Consent Policy Settings',
      );
    const values = Array.isArray(setting?.data.values) ? (setting.data.values as unknown[]) : [];
    const groupSpecific = values.find((v) => member(v, 'name') === 'EnableGroupSpecificConsent');
    const enabled = String(member(groupSpecific, 'value') ?? '').toLowerCase() === 'true';
    return settingOutcome(
      records.one('authorization_policy'),
      'authorization_policy',
      [
        '/defaultUserRolePermissions/permissionGrantPoliciesAssigned',
        'group_setting /values EnableGroupSpecificConsent',
      ],
      { groupOwnerConsentPolicies: owned, enableGroupSpecificConsent: groupSpecific ? enabled : null },
      { groupOwnerConsentPolicies: [], enableGroupSpecificConsent: [false, null] },
      owned.length === 0 && !enabled,
    );
  },
});

/** Checks of application registration and consent (SCuBA MS.AAD.5). */
export const APP_CHECKS: readonly EntraCheck[] = [
  userRegistration,
  userConsent,
  adminConsentWorkflow,
  groupOwnerConsent,
];
