import { describe, expect, it } from '@jest/globals';
import { ENTRA_CHECKS } from './index.js';
import { checkById, record, runCheck } from './testing/check-harness.js';

const check = (id: string) => checkById(ENTRA_CHECKS, id);
const method = (id: string, state: string, extra: Record<string, unknown> = {}) =>
  record('authentication_method_configuration', id, { id, state, ...extra }, id);
const authorization = (data: Record<string, unknown>) =>
  record('authorization_policy', 'authorizationPolicy', data, 'Authorization Policy');
const defaults = (permissions: Record<string, unknown>) =>
  authorization({ defaultUserRolePermissions: permissions });

describe('authentication methods policy (SCuBA MS.AAD.3.3 to 3.5)', () => {
  it('MS.AAD.3.5v1 fails while SMS, voice or email OTP is enabled, naming it', () => {
    const sut = check('entra.authenticators.weak_methods');
    const off = [
      method('Sms', 'disabled'),
      method('Voice', 'disabled'),
      method('Email', 'disabled'),
      method('Fido2', 'enabled'),
    ];
    expect(runCheck(sut, off).status).toBe('pass');
    const outcome = runCheck(sut, [...off.slice(1), method('Sms', 'enabled')]);
    expect(outcome).toMatchObject({
      status: 'fail',
      resources: [{ id: 'Sms', observed: { state: 'enabled' } }],
      total: 1,
    });
  });

  it('MS.AAD.3.4v1 passes only once the migration is complete', () => {
    const sut = check('entra.authenticators.methods_migrated');
    const policy = (state: string) =>
      record('authentication_methods_policy', 'authenticationMethodsPolicy', { policyMigrationState: state });
    expect(runCheck(sut, [policy('migrationComplete')]).status).toBe('pass');
    // test_PolicyMigrationState_Correct_NullValue: a tenant with nothing to migrate.
    const unset = record('authentication_methods_policy', 'authenticationMethodsPolicy', {
      policyMigrationState: null,
    });
    expect(runCheck(sut, [unset]).status).toBe('pass');
    expect(runCheck(sut, [policy('preMigration')]).status).toBe('fail');
    expect(runCheck(sut, [policy('migrationInProgress')])).toMatchObject({
      status: 'fail',
      observed: { policyMigrationState: 'migrationInProgress' },
    });
    expect(runCheck(sut, [])).toMatchObject({
      status: 'manual',
      note: expect.stringContaining('Policy.Read.AuthenticationMethod'),
    });
  });

  it('MS.AAD.3.3v1 login context for all users; not applicable with Authenticator disabled', () => {
    const sut = check('entra.authenticators.login_context');
    const feature = (state: string, id = 'all_users') => ({
      state,
      includeTarget: { targetType: 'group', id },
    });
    const authenticator = (app: object, location: object, isSoftwareOathEnabled = false) =>
      method('MicrosoftAuthenticator', 'enabled', {
        isSoftwareOathEnabled,
        featureSettings: {
          displayAppInformationRequiredState: app,
          displayLocationInformationRequiredState: location,
        },
      });
    expect(runCheck(sut, [authenticator(feature('enabled'), feature('enabled'))]).status).toBe('pass');
    expect(runCheck(sut, [authenticator(feature('enabled'), feature('default'))]).status).toBe('fail');
    expect(runCheck(sut, [authenticator(feature('enabled', 'g1'), feature('enabled'))]).status).toBe('fail');
    expect(runCheck(sut, [method('MicrosoftAuthenticator', 'disabled')]).status).toBe('not_applicable');
    // test_MicrosoftAuthEnabled_IsSoftwareOathEnabled_True_*: software OATH in Authenticator fails.
    expect(runCheck(sut, [authenticator(feature('enabled'), feature('enabled'), true)])).toMatchObject({
      status: 'fail',
      observed: { isSoftwareOathEnabled: true },
    });
    // Not applicable once phishing-resistant MFA is required of all users (MS.AAD.3.1v1 met).
    const phishingResistant = record('conditional_access_policy', 'p1', {
      state: 'enabled',
      conditions: {
        users: { includeUsers: ['All'], excludeUsers: [], excludeGroups: [], excludeRoles: [] },
        applications: { includeApplications: ['All'], excludeApplications: [] },
      },
      grantControls: {
        operator: 'OR',
        builtInControls: [],
        authenticationStrength: { id: 'pr', allowedCombinations: ['fido2', 'windowsHelloForBusiness'] },
      },
    });
    expect(
      runCheck(sut, [authenticator(feature('default'), feature('default'), true), phishingResistant]).status,
    ).toBe('not_applicable');
  });
});

describe('applications (SCuBA MS.AAD.5)', () => {
  it('MS.AAD.5.1v1 only admins register apps', () => {
    const sut = check('entra.apps.user_registration');
    expect(runCheck(sut, [defaults({ allowedToCreateApps: false })]).status).toBe('pass');
    expect(runCheck(sut, [defaults({ allowedToCreateApps: true })])).toMatchObject({
      status: 'fail',
      resources: [{ id: 'authorizationPolicy', observed: { allowedToCreateApps: true } }],
    });
  });

  it('MS.AAD.5.2v1 no user consent policy (v1.0 and beta shapes); manual when the policy does not say', () => {
    const sut = check('entra.apps.user_consent');
    expect(runCheck(sut, [defaults({ permissionGrantPoliciesAssigned: [] })]).status).toBe('pass');
    const v1 = defaults({
      permissionGrantPoliciesAssigned: ['ManagePermissionGrantsForSelf.microsoft-user-default-low'],
    });
    expect(runCheck(sut, [v1]).status).toBe('fail');
    const beta = authorization({
      permissionGrantPolicyIdsAssignedToDefaultUserRole: [
        'ManagePermissionGrantsForSelf.microsoft-user-default-legacy',
      ],
    });
    expect(runCheck(sut, [beta]).status).toBe('fail');
    expect(runCheck(sut, [defaults({ allowedToCreateApps: false })]).status).toBe('manual');
  });

  it('MS.AAD.5.3v1 admin consent workflow enabled with reviewers', () => {
    const sut = check('entra.apps.admin_consent_workflow');
    const policy = (isEnabled: boolean, reviewers: unknown[]) =>
      record('admin_consent_request_policy', 'adminConsentRequestPolicy', { isEnabled, reviewers });
    expect(runCheck(sut, [policy(true, [{ query: '/users/u1' }])]).status).toBe('pass');
    expect(runCheck(sut, [policy(true, [])]).status).toBe('fail');
    expect(runCheck(sut, [policy(false, [{ query: '/users/u1' }])]).status).toBe('fail');
  });

  it('MS.AAD.5.4v1 group owners cannot consent: no owned-resource policy, no group-specific consent', () => {
    const sut = check('entra.apps.group_owner_consent');
    const none = defaults({ permissionGrantPoliciesAssigned: [] });
    expect(runCheck(sut, [none]).status).toBe('pass');
    const owned = defaults({
      permissionGrantPoliciesAssigned: [
        'ManagePermissionGrantsForOwnedResource.microsoft-dynamically-managed-permissions-for-team',
      ],
    });
    expect(runCheck(sut, [owned]).status).toBe('fail');
    const setting = record('group_setting', 's1', {
      displayName: 'Consent Policy Settings',
      templateId: 'dffd5d46-495d-40a9-8e21-954ff55e198a',
      values: [{ name: 'EnableGroupSpecificConsent', value: 'True' }],
    });
    expect(runCheck(sut, [none, setting])).toMatchObject({
      status: 'fail',
      observed: { enableGroupSpecificConsent: true },
    });
  });
});

describe('tenant settings and guests (SCuBA MS.AAD.6 and 8, CIS Microsoft 365 5.1)', () => {
  const domain = (id: string, days: number, isVerified = true) =>
    record('domain', id, { id, isVerified, passwordValidityPeriodInDays: days }, id);

  it('MS.AAD.6.1v1 passwords never expire on verified domains; a framework age limit instead', () => {
    const sut = check('entra.password.expiry');
    expect(
      runCheck(sut, [domain('a.example', 2_147_483_647), domain('b.example', 90, false)], { noExpiry: true })
        .status,
    ).toBe('pass');
    const outcome = runCheck(sut, [domain('a.example', 90)], { noExpiry: true });
    expect(outcome).toMatchObject({
      status: 'fail',
      resources: [{ id: 'a.example', observed: { passwordValidityPeriodInDays: 90 } }],
    });
    expect(runCheck(sut, [domain('a.example', 2_147_483_647)], { maxAgeDays: 90 }).status).toBe('fail');
    const mfa = record('conditional_access_policy', 'p1', {
      state: 'enabled',
      conditions: { users: { includeUsers: ['All'] }, applications: { includeApplications: ['All'] } },
      grantControls: { operator: 'OR', builtInControls: ['mfa'] },
    });
    expect(
      runCheck(sut, [domain('a.example', 2_147_483_647), mfa], { maxAgeDays: 90, onlyWithoutMfa: true })
        .status,
    ).toBe('pass');
  });

  it('MS.AAD.8.1v1 / 8.2v1 guest access limited and invitations restricted', () => {
    const access = check('entra.guests.access_restricted');
    expect(
      runCheck(access, [authorization({ guestUserRoleId: '2af84b1e-32c8-42b7-82bc-daa82404023b' })]).status,
    ).toBe('pass');
    expect(
      runCheck(access, [authorization({ guestUserRoleId: '10dae51f-b6af-4016-8d66-8c2a99b929b3' })]).status,
    ).toBe('pass');
    expect(
      runCheck(access, [authorization({ guestUserRoleId: 'a0b1b346-4d3e-4e8b-98f8-753987be4970' })]),
    ).toMatchObject({
      status: 'fail',
      observed: { access: 'same access as members' },
    });
    const invites = check('entra.guests.invite_restricted');
    expect(runCheck(invites, [authorization({ allowInvitesFrom: 'adminsAndGuestInviters' })]).status).toBe(
      'pass',
    );
    expect(runCheck(invites, [authorization({ allowInvitesFrom: 'none' })]).status).toBe('pass');
    expect(runCheck(invites, [authorization({ allowInvitesFrom: 'everyone' })]).status).toBe('fail');
  });

  it('CIS 5.1.2.3 non-admins cannot create tenants', () => {
    const sut = check('entra.users.tenant_creation');
    expect(runCheck(sut, [defaults({ allowedToCreateTenants: false })]).status).toBe('pass');
    expect(runCheck(sut, [defaults({ allowedToCreateTenants: true })]).status).toBe('fail');
  });

  it.each([
    ['entra.guests.invite_domains', /Policy\.Read\.All/],
    ['entra.users.linkedin_connections', /no Microsoft Graph API/],
    ['entra.password.self_service_reset', /no Graph API/],
    ['entra.users.inactive', /AuditLog\.Read\.All/],
  ])('%s is manual, saying why and what would provide it', (id, why) => {
    expect(runCheck(check(id), [])).toMatchObject({ status: 'manual', note: expect.stringMatching(why) });
  });
});
