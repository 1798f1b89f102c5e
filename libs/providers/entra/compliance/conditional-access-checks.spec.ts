import { describe, expect, it } from '@jest/globals';
import { HIGHLY_PRIVILEGED_ROLES } from './conditional-access.js';
import { ENTRA_CHECKS } from './index.js';
import { checkById, record, runCheck } from './testing/check-harness.js';

/** A conditional access policy on All users and All cloud apps, enabled, changed by `over`. */
function policy(
  id: string,
  over: Record<string, unknown> = {},
  grant: Record<string, unknown> | null = null,
) {
  const { users, applications, ...conditions } = (over.conditions ?? {}) as Record<string, unknown>;
  return record(
    'conditional_access_policy',
    id,
    {
      state: over.state ?? 'enabled',
      conditions: {
        clientAppTypes: ['all'],
        userRiskLevels: [],
        signInRiskLevels: [],
        users: {
          includeUsers: ['All'],
          excludeUsers: [],
          includeGroups: [],
          excludeGroups: [],
          includeRoles: [],
          excludeRoles: [],
          excludeGuestsOrExternalUsers: null,
          ...(users as object),
        },
        applications: {
          includeApplications: ['All'],
          excludeApplications: [],
          includeUserActions: [],
          ...(applications as object),
        },
        ...conditions,
      },
      grantControls: grant,
      sessionControls: over.sessionControls ?? null,
    },
    `policy ${id}`,
  );
}

const block = { operator: 'OR', builtInControls: ['block'], authenticationStrength: null };
const mfa = { operator: 'OR', builtInControls: ['mfa'], authenticationStrength: null };
const phishingResistant = {
  operator: 'OR',
  builtInControls: [],
  authenticationStrength: {
    id: '00000000-0000-0000-0000-000000000004',
    allowedCombinations: ['windowsHelloForBusiness', 'fido2', 'x509CertificateMultiFactor'],
  },
};
const check = (id: string) => checkById(ENTRA_CHECKS, id);
const legacy = { clientAppTypes: ['exchangeActiveSync', 'other'] };

describe('conditional access checks (SCuBA MS.AAD.1 to 3)', () => {
  describe('MS.AAD.1.1v1 legacy authentication blocked', () => {
    const sut = check('entra.access.legacy_auth_blocked');

    it('passes on an enabled policy blocking legacy clients for All users and apps, naming it', () => {
      const outcome = runCheck(sut, [policy('p1', { conditions: legacy }, block)]);
      expect(outcome).toMatchObject({
        status: 'pass',
        resources: [{ id: 'p1', observed: { state: 'enabled', gaps: [] } }],
      });
    });

    it('fails on a report-only policy: it does not enforce', () => {
      const outcome = runCheck(sut, [
        policy('p1', { state: 'enabledForReportingButNotEnforced', conditions: legacy }, block),
      ]);
      expect(outcome.status).toBe('fail');
      expect(outcome.resources[0].observed).toEqual({
        state: 'enabledForReportingButNotEnforced',
        gaps: ['report-only (enabledForReportingButNotEnforced): not enforced'],
      });
    });

    it('fails on a disabled policy', () => {
      expect(runCheck(sut, [policy('p1', { state: 'disabled', conditions: legacy }, block)]).status).toBe(
        'fail',
      );
    });

    it.each([
      ['a user', { excludeUsers: ['u1'] }, 'excludeUsers: u1'],
      ['a group', { excludeGroups: ['g1'] }, 'excludeGroups: g1'],
      ['a role', { excludeRoles: ['r1'] }, 'excludeRoles: r1'],
      [
        'guests',
        { excludeGuestsOrExternalUsers: { guestOrExternalUserTypes: 'b2bCollaborationGuest' } },
        'excludes guests or external users',
      ],
    ])('fails when the policy excludes %s: not "all users"', (_what, users, gap) => {
      const outcome = runCheck(sut, [policy('p1', { conditions: { ...legacy, users } }, block)]);
      expect(outcome.status).toBe('fail');
      expect(outcome.resources[0].observed).toMatchObject({ gaps: [gap] });
    });

    it('fails when the policy covers some users or apps only, or misses a legacy client type', () => {
      expect(
        runCheck(sut, [
          policy(
            'p1',
            { conditions: { ...legacy, users: { includeUsers: [], includeGroups: ['g1'] } } },
            block,
          ),
        ]).status,
      ).toBe('fail');
      expect(
        runCheck(sut, [
          policy('p1', { conditions: { ...legacy, applications: { excludeApplications: ['a1'] } } }, block),
        ]).status,
      ).toBe('fail');
      const outcome = runCheck(sut, [
        policy('p1', { conditions: { clientAppTypes: ['exchangeActiveSync'] } }, block),
      ]);
      expect(outcome).toMatchObject({
        status: 'fail',
        resources: [],
        note: expect.stringMatching(/^No conditional access policy/),
      });
    });

    it('passes when one of several candidates enforces, naming only that one', () => {
      const outcome = runCheck(sut, [
        policy('p1', { state: 'enabledForReportingButNotEnforced', conditions: legacy }, block),
        policy('p2', { conditions: legacy }, block),
      ]);
      expect(outcome).toMatchObject({ status: 'pass', resources: [{ id: 'p2' }], total: 1 });
    });
  });

  it('MS.AAD.2.1v1 / 2.3v1: high-risk users and sign-ins blocked; exclusions and report-only fail', () => {
    const users = check('entra.risk.high_risk_users_blocked');
    const signIns = check('entra.risk.high_risk_signins_blocked');
    expect(runCheck(users, [policy('p1', { conditions: { userRiskLevels: ['high'] } }, block)]).status).toBe(
      'pass',
    );
    expect(
      runCheck(users, [policy('p1', { conditions: { signInRiskLevels: ['high'] } }, block)]).status,
    ).toBe('fail');
    expect(
      runCheck(users, [
        policy(
          'p1',
          { state: 'enabledForReportingButNotEnforced', conditions: { userRiskLevels: ['high'] } },
          block,
        ),
      ]).status,
    ).toBe('fail');
    expect(
      runCheck(signIns, [policy('p1', { conditions: { signInRiskLevels: ['high'] } }, block)]).status,
    ).toBe('pass');
    expect(
      runCheck(signIns, [
        policy('p1', { conditions: { signInRiskLevels: ['high'], users: { excludeGroups: ['g'] } } }, block),
      ]).status,
    ).toBe('fail');
    // A risk policy asking for MFA instead of blocking does not block.
    expect(
      runCheck(signIns, [policy('p1', { conditions: { signInRiskLevels: ['high'] } }, mfa)]).status,
    ).toBe('fail');
  });

  describe('MS.AAD.3.1v1 / 3.2v1 MFA for all users', () => {
    const phishing = check('entra.mfa.phishing_resistant_all');
    const anyMfa = check('entra.mfa.all_users');

    it('takes a phishing-resistant strength inline or from the backup by id', () => {
      expect(runCheck(phishing, [policy('p1', {}, phishingResistant)]).status).toBe('pass');
      const byId = { ...phishingResistant, authenticationStrength: { id: 's1' } };
      const strength = record('authentication_strength_policy', 's1', { allowedCombinations: ['fido2'] });
      expect(runCheck(phishing, [strength, policy('p1', {}, byId)]).status).toBe('pass');
      const weak = record('authentication_strength_policy', 's1', {
        allowedCombinations: ['fido2', 'password,sms'],
      });
      expect(runCheck(phishing, [weak, policy('p1', {}, byId)]).status).toBe('fail');
    });

    it('does not count plain MFA, or a strength offered as an alternative, as phishing-resistant', () => {
      expect(runCheck(phishing, [policy('p1', {}, mfa)]).status).toBe('fail');
      const orMfa = { ...phishingResistant, builtInControls: ['mfa'] };
      expect(runCheck(phishing, [policy('p1', {}, orMfa)]).status).toBe('fail');
      expect(
        runCheck(phishing, [
          policy('p1', { conditions: { users: { excludeUsers: ['breakglass'] } } }, phishingResistant),
        ]).status,
      ).toBe('fail');
    });

    it('MS.AAD.3.2v1 counts mfa, a strength, and AND grants; not an OR with a non-MFA control', () => {
      expect(runCheck(anyMfa, [policy('p1', {}, mfa)]).status).toBe('pass');
      expect(runCheck(anyMfa, [policy('p1', {}, phishingResistant)]).status).toBe('pass');
      expect(
        runCheck(anyMfa, [policy('p1', {}, { ...mfa, builtInControls: ['mfa', 'compliantDevice'] })]).status,
      ).toBe('fail');
      expect(
        runCheck(anyMfa, [
          policy('p1', {}, { ...mfa, operator: 'AND', builtInControls: ['mfa', 'compliantDevice'] }),
        ]).status,
      ).toBe('pass');
      expect(
        runCheck(anyMfa, [policy('p1', { state: 'enabledForReportingButNotEnforced' }, mfa)]).status,
      ).toBe('fail');
      expect(runCheck(anyMfa, [policy('p1', { state: 'disabled' }, mfa)]).status).toBe('fail');
    });

    it('MS.AAD.3.2v1 counts a strength only when every combination it allows is multifactor (ScubaGear IsGeneralMFA)', () => {
      const strength = (allowedCombinations: string[]) => ({
        operator: 'OR',
        builtInControls: [],
        authenticationStrength: { id: 'custom', allowedCombinations },
      });
      expect(runCheck(anyMfa, [policy('p1', {}, strength(['deviceBasedPush']))]).status).toBe('pass');
      expect(
        runCheck(anyMfa, [
          policy('p1', {}, strength(['password,softwareOath', 'temporaryAccessPassOneTime'])),
        ]).status,
      ).toBe('pass');
      // test_IsGeneralMFA_NonMFAStrength_Incorrect, test_IsGeneralMFA_EmptyAuthenticationStrength_Incorrect
      expect(runCheck(anyMfa, [policy('p1', {}, strength(['password']))]).status).toBe('fail');
      expect(runCheck(anyMfa, [policy('p1', {}, strength([]))]).status).toBe('fail');
      expect(
        runCheck(anyMfa, [policy('p1', {}, strength(['password,softwareOath', 'password']))]).status,
      ).toBe('fail');
    });
  });

  describe('MS.AAD.3.6v1 phishing-resistant MFA for highly privileged roles', () => {
    const sut = check('entra.mfa.phishing_resistant_admins');
    const roles = Object.keys(HIGHLY_PRIVILEGED_ROLES);

    it('passes on a policy naming every highly privileged role; All users alone does not count (ScubaGear)', () => {
      const onRoles = { conditions: { users: { includeUsers: [], includeRoles: roles } } };
      expect(runCheck(sut, [policy('p1', onRoles, phishingResistant)]).status).toBe('pass');
      const withAll = { conditions: { users: { includeUsers: ['All'], includeRoles: roles } } };
      expect(runCheck(sut, [policy('p1', withAll, phishingResistant)]).status).toBe('pass');
      // ScubaGear's 3.6 compares includeRoles with the privileged roles: a policy on All users
      // that names none fails it (test_ConditionalAccessPolicies_Incorrect_Covered_Roles).
      const allOnly = runCheck(sut, [policy('p1', {}, phishingResistant)]);
      expect(allOnly.status).toBe('fail');
      expect(allOnly.resources[0].observed).toMatchObject({
        gaps: [expect.stringContaining('does not include Global Administrator')],
      });
    });

    it('fails when a role is missing or excluded, naming it', () => {
      const missing = { conditions: { users: { includeUsers: [], includeRoles: roles.slice(1) } } };
      const outcome = runCheck(sut, [policy('p1', missing, phishingResistant)]);
      expect(outcome.status).toBe('fail');
      expect(outcome.resources[0].observed).toMatchObject({
        gaps: ['does not include Global Administrator'],
      });
      const excluded = { conditions: { users: { includeUsers: ['All'], excludeRoles: [roles[0]] } } };
      expect(runCheck(sut, [policy('p1', excluded, phishingResistant)]).status).toBe('fail');
    });

    it('CIS 5.2.2.1 MFA for admin roles takes plain MFA', () => {
      expect(runCheck(check('entra.mfa.admin_roles'), [policy('p1', {}, mfa)]).status).toBe('pass');
      expect(runCheck(check('entra.mfa.admin_roles'), [policy('p1', {}, block)]).status).toBe('fail');
    });
  });

  it('MS.AAD.3.7v1 / 3.8v1 managed devices, for sign-in and for MFA registration', () => {
    const devices = check('entra.access.managed_devices');
    const registration = check('entra.access.managed_devices_mfa_registration');
    const compliant = { operator: 'OR', builtInControls: ['compliantDevice', 'domainJoinedDevice'] };
    expect(runCheck(devices, [policy('p1', {}, compliant)]).status).toBe('pass');
    expect(
      runCheck(devices, [policy('p1', { state: 'enabledForReportingButNotEnforced' }, compliant)]).status,
    ).toBe('fail');
    expect(
      runCheck(devices, [policy('p1', {}, { operator: 'OR', builtInControls: ['compliantDevice', 'mfa'] })])
        .status,
    ).toBe('fail');
    const onRegistration = {
      conditions: {
        applications: { includeApplications: [], includeUserActions: ['urn:user:registersecurityinfo'] },
      },
    };
    expect(runCheck(registration, [policy('p1', onRegistration, compliant)]).status).toBe('pass');
    expect(runCheck(devices, [policy('p1', onRegistration, compliant)]).status).toBe('fail');
    expect(runCheck(registration, [policy('p1', {}, compliant)]).status).toBe('fail');
  });

  it('MS.AAD.3.7v1 wants both device controls, one of them required; 3.8v1 takes either (ScubaGear)', () => {
    const devices = check('entra.access.managed_devices');
    const registration = check('entra.access.managed_devices_mfa_registration');
    const grant = (operator: string, builtInControls: string[]) => ({ operator, builtInControls });
    // test_OperatorIncorrect_V1 and test_BuiltInControls_Incorrect_V3
    expect(
      runCheck(devices, [policy('p1', {}, grant('', ['compliantDevice', 'domainJoinedDevice']))]).status,
    ).toBe('fail');
    expect(
      runCheck(devices, [policy('p1', {}, grant('AND', ['compliantDevice', 'domainJoinedDevice']))]).status,
    ).toBe('fail');
    expect(runCheck(devices, [policy('p1', {}, grant('OR', ['compliantDevice']))]).status).toBe('fail');
    const onRegistration = {
      conditions: {
        applications: { includeApplications: [], includeUserActions: ['urn:user:registersecurityinfo'] },
      },
    };
    // test_Correct_OnlyCompliantDevice, test_Correct_OnlyDomainJoinedDevice, test_Incorrect_EmptyGrantControls
    for (const controls of [['compliantDevice'], ['domainJoinedDevice'], ['mfa', 'compliantDevice']])
      expect(runCheck(registration, [policy('p1', onRegistration, grant('OR', controls))]).status).toBe(
        'pass',
      );
    expect(runCheck(registration, [policy('p1', onRegistration, grant('OR', []))]).status).toBe('fail');
    // test_InCorrect_ReportOnly, and an excluded user keeps it from counting (test_ExcludeUserIncorrect_V2)
    expect(
      runCheck(registration, [
        policy(
          'p1',
          { ...onRegistration, state: 'enabledForReportingButNotEnforced' },
          grant('OR', ['compliantDevice']),
        ),
      ]).status,
    ).toBe('fail');
    const excluded = {
      conditions: { ...onRegistration.conditions, users: { includeUsers: ['All'], excludeUsers: ['u1'] } },
    };
    expect(runCheck(registration, [policy('p1', excluded, grant('OR', ['compliantDevice']))]).status).toBe(
      'fail',
    );
  });

  it('MS.AAD.3.9v1 device code flow blocked; an excluded user keeps it from counting', () => {
    const sut = check('entra.access.device_code_blocked');
    const flows = { authenticationFlows: { transferMethods: 'deviceCodeFlow' } };
    expect(runCheck(sut, [policy('p1', { conditions: flows }, block)]).status).toBe('pass');
    const outcome = runCheck(sut, [
      policy('p1', { conditions: { ...flows, users: { excludeUsers: ['u9'] } } }, block),
    ]);
    expect(outcome).toMatchObject({
      status: 'fail',
      resources: [{ id: 'p1', observed: { gaps: ['excludeUsers: u9'] } }],
    });
  });

  it('session lifetime (framework threshold) and persistent browser sessions', () => {
    const lifetime = check('entra.session.lifetime');
    const session = (value: number, type: string) => ({
      sessionControls: {
        signInFrequency: { isEnabled: true, type, value, frequencyInterval: 'timeBased' },
        persistentBrowser: { isEnabled: true, mode: 'never' },
      },
    });
    expect(runCheck(lifetime, [policy('p1', session(12, 'hours'))], { maxLifetimeMinutes: 720 }).status).toBe(
      'pass',
    );
    const long = runCheck(lifetime, [policy('p1', session(4, 'days'))], { maxLifetimeMinutes: 720 });
    expect(long).toMatchObject({
      status: 'fail',
      resources: [{ id: 'p1', observed: { signInFrequencyMinutes: 5760 } }],
    });
    const persistent = check('entra.session.persistent_browser');
    expect(runCheck(persistent, [policy('p1', session(4, 'days'))]).status).toBe('pass');
    expect(
      runCheck(persistent, [
        policy('p1', { sessionControls: { persistentBrowser: { isEnabled: true, mode: 'always' } } }),
      ]).status,
    ).toBe('fail');
  });

  it('CIS 5.1.1.1: security defaults, or conditional access requiring MFA in their place', () => {
    const sut = check('entra.access.security_defaults_or_conditional_access');
    const defaults = (isEnabled: boolean) =>
      record('identity_security_defaults_enforcement_policy', 'sd', { isEnabled });
    expect(runCheck(sut, [defaults(true)]).status).toBe('pass');
    expect(runCheck(sut, [defaults(false), policy('p1', {}, mfa)]).status).toBe('pass');
    expect(
      runCheck(sut, [defaults(false), policy('p1', { state: 'enabledForReportingButNotEnforced' }, mfa)])
        .status,
    ).toBe('fail');
  });
});
