import { CONDITIONAL_ACCESS_READS, phishingResistantForAllUsers } from './conditional-access-checks.js';
import { configCheck, type EntraCheck, evidenceOf, member, settingOutcome } from './entra-outcomes.js';

/** Methods the baseline calls weak (MS.AAD.3.5v1): their method configuration ids. */
const WEAK_METHODS = ['Sms', 'Voice', 'Email'] as const;

/** MS.AAD.3.5v1: SMS, voice call and email one-time passcode SHALL be disabled. */
const weakMethods: EntraCheck = configCheck({
  key: 'authenticators.weak_factors',
  id: 'entra.authenticators.weak_methods',
  policy: 'MS.AAD.3.5v1',
  title: 'SMS, voice call and email one-time passcode are disabled',
  remediation:
    'In the authentication methods policy, disable SMS, Voice call and Email OTP (after the migration to the policy is complete).',
  reads: ['authentication_method_configuration'],
  evaluate(records) {
    const byId = new Map(
      records.of('authentication_method_configuration').map((r) => [r.id.toLowerCase(), r]),
    );
    const judged = WEAK_METHODS.map((method) => {
      const record = byId.get(method.toLowerCase());
      return { method, record, state: record ? String(record.data.state) : 'absent' };
    });
    const enabled = judged.filter((j) => j.state === 'enabled');
    const shown = enabled.length > 0 ? enabled : judged;
    const resources = shown.map((j) =>
      j.record
        ? evidenceOf(j.record, { state: j.state })
        : { id: j.method, name: j.method, observed: { state: 'absent' } },
    );
    return {
      status: enabled.length > 0 ? 'fail' : 'pass',
      resourceType: 'authentication_method_configuration',
      resources,
      total: resources.length,
      pointers: ['/state'],
      observed: Object.fromEntries(judged.map((j) => [j.method, j.state])),
      expected: { Sms: 'disabled', Voice: 'disabled', Email: 'disabled' },
    };
  },
});

/**
 * MS.AAD.3.4v1: the migration to the authentication methods policy SHALL be complete. A policy
 * without `policyMigrationState` counts as migrated, as ScubaGear's Rego reads it
 * (test_PolicyMigrationState_Correct_NullValue): tenants made after the legacy MFA and SSPR
 * policies were retired have nothing to migrate.
 */
const methodsMigrated: EntraCheck = configCheck({
  key: 'authenticators.methods_migrated',
  id: 'entra.authenticators.methods_migrated',
  policy: 'MS.AAD.3.4v1',
  title: 'The authentication methods policy is the only one in force (migration complete)',
  remediation:
    'Finish the migration from the legacy MFA and SSPR policies (Authentication methods > Manage migration > Migration complete).',
  reads: ['authentication_methods_policy'],
  evaluate(records) {
    const policy = records.one('authentication_methods_policy');
    const state = policy?.data.policyMigrationState ?? null;
    return settingOutcome(
      policy,
      'authentication_methods_policy',
      ['/policyMigrationState'],
      { policyMigrationState: state },
      { policyMigrationState: ['migrationComplete', null] },
      state === 'migrationComplete' || (policy !== undefined && state === null),
    );
  },
});

/**
 * MS.AAD.3.3v1: when Microsoft Authenticator is enabled, it SHALL show login context (the
 * application name and the geographic location) to all users. As ScubaGear's Rego reads it:
 * software OATH tokens in Authenticator must be off (`isSoftwareOathEnabled` false), and the
 * policy is not applicable when Authenticator is disabled or when phishing-resistant MFA is
 * required of all users (MS.AAD.3.1v1 met: push notifications are then no way in).
 */
const loginContext: EntraCheck = configCheck({
  key: 'authenticators.login_context',
  id: 'entra.authenticators.login_context',
  policy: 'MS.AAD.3.3v1',
  title: 'Microsoft Authenticator shows the application and location of each sign-in',
  remediation:
    'In the Microsoft Authenticator configuration, enable "Show application name" and "Show geographic location" for all users.',
  reads: ['authentication_method_configuration', ...CONDITIONAL_ACCESS_READS],
  evaluate(records) {
    const record = records
      .of('authentication_method_configuration')
      .find((r) => r.id.toLowerCase() === 'microsoftauthenticator');
    if (phishingResistantForAllUsers(records))
      return {
        status: 'not_applicable',
        resourceType: 'conditional_access_policy',
        resources: [],
        total: 0,
        pointers: [],
        observed: null,
        expected: null,
        note: 'Phishing-resistant MFA is required of all users (MS.AAD.3.1v1): Authenticator push notifications are no way in, so their login context does not matter.',
      };
    if (record && record.data.state !== 'enabled')
      return {
        status: 'not_applicable',
        resourceType: 'authentication_method_configuration',
        resources: [evidenceOf(record, { state: record.data.state })],
        total: 1,
        pointers: ['/state'],
        observed: { state: record.data.state },
        expected: null,
        note: 'Microsoft Authenticator is disabled: no push notification to show context in.',
      };
    const settings = member(record?.data, 'featureSettings');
    const feature = (name: string) => {
      const setting = member(settings, name);
      return {
        state: member(setting, 'state') ?? null,
        target: member(member(setting, 'includeTarget'), 'id') ?? null,
      };
    };
    const app = feature('displayAppInformationRequiredState');
    const location = feature('displayLocationInformationRequiredState');
    const softwareOath = record?.data.isSoftwareOathEnabled ?? null;
    const shown = (f: { state: unknown; target: unknown }) =>
      f.state === 'enabled' && f.target === 'all_users';
    return settingOutcome(
      record,
      'authentication_method_configuration',
      [
        '/featureSettings/displayAppInformationRequiredState',
        '/featureSettings/displayLocationInformationRequiredState',
        '/isSoftwareOathEnabled',
      ],
      { application: app, location, isSoftwareOathEnabled: softwareOath },
      {
        application: { state: 'enabled', target: 'all_users' },
        location: { state: 'enabled', target: 'all_users' },
        isSoftwareOathEnabled: false,
      },
      shown(app) && shown(location) && softwareOath === false,
    );
  },
});

/** Checks of the authentication methods policy (SCuBA MS.AAD.3.3 to 3.5). */
export const METHOD_CHECKS: readonly EntraCheck[] = [weakMethods, methodsMigrated, loginContext];
