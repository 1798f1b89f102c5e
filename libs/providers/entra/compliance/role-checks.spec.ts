import { describe, expect, it } from '@jest/globals';
import { runFramework } from '@libs/compliance/compliance-engine.js';
import type { RecordSource } from '@libs/compliance/compliance-types.js';
import { NIST } from '@libs/compliance/frameworks/nist.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { GLOBAL_ADMINISTRATOR } from './conditional-access.js';
import { ENTRA_CHECKS } from './index.js';
import { CONTEXT, checkById, record, runCheck } from './testing/check-harness.js';

const check = (id: string) => checkById(ENTRA_CHECKS, id);
const USER_ADMIN = 'fe930be7-5e62-47db-91af-98c3a49a38b1';
/** Global Reader's template id: a directory role, not a highly privileged one. */
const GLOBAL_READER = 'f2ef992c-3afb-46b9-b7cf-a126ee74c451';
const assignment = (principalId: string, roleDefinitionId = GLOBAL_ADMINISTRATOR) =>
  record('role_assignment', `a-${principalId}-${roleDefinitionId}`, {
    principalId,
    roleDefinitionId,
    directoryScopeId: '/',
  });
const eligibility = (principalId: string, roleDefinitionId = GLOBAL_ADMINISTRATOR) =>
  record('role_eligibility_schedule', `e-${principalId}`, {
    principalId,
    roleDefinitionId,
    directoryScopeId: '/',
  });
const user = (id: string, data: Record<string, unknown>) => record('user', id, data, `${id}@example.com`);
const schedule = (
  principalId: string,
  end: string | null,
  assignmentType = 'Assigned',
  roleDefinitionId = GLOBAL_ADMINISTRATOR,
) =>
  record('role_assignment_schedule', `s-${principalId}`, {
    principalId,
    roleDefinitionId,
    assignmentType,
    scheduleInfo: {
      expiration: end
        ? { type: 'afterDateTime', endDateTime: end }
        : { type: 'noExpiration', endDateTime: null },
    },
  });

describe('directory roles (SCuBA MS.AAD.7)', () => {
  describe('MS.AAD.7.1v1 Global Administrators between 2 and 8', () => {
    const sut = check('entra.admins.global_admin_count');

    it('counts active and eligible holders once each, with SCuBA bounds by default', () => {
      const outcome = runCheck(sut, [
        assignment('u1'),
        eligibility('u2'),
        assignment('u2'),
        assignment('u3', USER_ADMIN),
      ]);
      expect(outcome).toMatchObject({
        status: 'pass',
        observed: { globalAdmins: 2 },
        expected: { min: 2, max: 8 },
        total: 2,
      });
      expect(runCheck(sut, [assignment('u1')])).toMatchObject({
        status: 'fail',
        note: expect.stringContaining('break-glass'),
      });
    });

    it("counts a role-assignable group's members and applies the framework's bounds", () => {
      const group = record('group', 'g1', { isAssignableToRole: true });
      const members = ['m1', 'm2', 'm3', 'm4', 'm5'].map((m) =>
        record('group_membership', `g1:${m}`, { memberType: 'user' }),
      );
      const outcome = runCheck(sut, [group, ...members, assignment('g1'), assignment('u1')], {
        min: 2,
        max: 5,
      });
      expect(outcome).toMatchObject({
        status: 'fail',
        observed: { globalAdmins: 6 },
        expected: { min: 2, max: 5 },
      });
      expect(outcome.resources).toContainEqual({
        id: 'g1',
        name: null,
        observed: expect.objectContaining({ group: true, globalAdmins: 5 }),
      });
    });
  });

  it('MS.AAD.7.3v1 fails on a privileged user synchronised from on-premises, naming the user and roles', () => {
    const sut = check('entra.admins.cloud_only');
    const records = [
      user('u1', { onPremisesImmutableId: 'abc==', onPremisesSyncEnabled: true }),
      user('u2', { onPremisesImmutableId: null }),
      user('u3', { onPremisesImmutableId: 'def==' }),
      assignment('u1', USER_ADMIN),
      assignment('u2'),
    ];
    expect(runCheck(sut, records)).toMatchObject({
      status: 'fail',
      resources: [
        {
          id: 'u1',
          name: 'u1@example.com',
          observed: { roles: ['User Administrator'], onPremisesImmutableId: 'abc==' },
        },
      ],
      total: 1,
    });
    expect(
      runCheck(
        sut,
        records.filter((r) => r.id !== 'a-u1-' + USER_ADMIN),
      ).status,
    ).toBe('pass');
  });

  it('fails on a disabled account holding a role, actively or eligible', () => {
    const sut = check('entra.admins.disabled_with_roles');
    expect(runCheck(sut, [user('u1', { accountEnabled: false }), eligibility('u1')])).toMatchObject({
      status: 'fail',
      resources: [{ id: 'u1', observed: { via: ['eligible'] } }],
    });
    expect(runCheck(sut, [user('u1', { accountEnabled: true }), assignment('u1')]).status).toBe('pass');
  });

  describe('MS.AAD.7.4v1 no permanent active assignment of highly privileged roles', () => {
    const sut = check('entra.admins.permanent_assignments');

    it('fails on an active assignment that never expires, passes on time-bound and eligible ones', () => {
      expect(runCheck(sut, [assignment('u1'), schedule('u1', null)])).toMatchObject({
        status: 'fail',
        resources: [
          { id: 'u1', observed: { role: 'Global Administrator', expiration: { type: 'noExpiration' } } },
        ],
      });
      expect(runCheck(sut, [assignment('u1'), schedule('u1', '2026-07-01T00:00:00Z')]).status).toBe('pass');
      expect(runCheck(sut, [assignment('u1'), schedule('u1', null, 'Activated')]).status).toBe('pass');
      expect(runCheck(sut, [schedule('u1', null, 'Assigned', 'some-reader-role')]).status).toBe('pass');
    });

    it('is manual, naming the permission, when privileged assignments have no PIM schedule in the backup', () => {
      expect(runCheck(sut, [assignment('u1')])).toMatchObject({
        status: 'manual',
        note: expect.stringContaining('RoleAssignmentSchedule.Read.Directory'),
      });
    });

    it('is manual through the engine, naming the permission, when the backup lacks the schedules part', async () => {
      const parts: Record<string, ResourceRecord[]> = { role_assignment: [assignment('u1')] };
      const source: RecordSource = {
        types: Object.keys(parts),
        has: (type) => type in parts,
        async *readBatches(type) {
          yield parts[type];
        },
      };
      const report = await runFramework(NIST, ENTRA_CHECKS, source, CONTEXT);
      expect(report.findings.find((f) => f.check === 'entra.admins.permanent_assignments')).toMatchObject({
        status: 'manual',
        evidence: {
          note: 'The backup does not hold role_assignment_schedule. Grant RoleAssignmentSchedule.Read.Directory to collect it.',
        },
      });
    });
  });

  it.each([
    'entra.admins.activation_approval',
    'entra.admins.assignment_alerts',
    'entra.admins.activation_alerts',
    'entra.admins.other_activation_alerts',
  ])('%s is manual: PIM settings are not in the backup, and the note names the permission', (id) => {
    expect(runCheck(check(id), [])).toMatchObject({
      status: 'manual',
      resourceType: 'role_management_policy',
      note: expect.stringContaining('RoleManagementPolicy.Read.Directory'),
    });
  });
});

describe('privilege hand-out (SCuBA MS.AAD.7.2, 7.5) and monitoring (MS.AAD.2.2, 4.1)', () => {
  describe('MS.AAD.7.2v1 finer-grained roles rather than Global Administrator', () => {
    const sut = check('entra.admins.least_privilege');

    it('passes when 7.1 holds and the Global Administrators are no more than the other privileged users', () => {
      const outcome = runCheck(sut, [
        assignment('g1'),
        eligibility('g2'),
        assignment('o1', USER_ADMIN),
        eligibility('o2', USER_ADMIN),
      ]);
      expect(outcome).toMatchObject({
        status: 'pass',
        observed: { globalAdmins: 2, otherPrivilegedUsers: 2 },
        expected: { min: 2, max: 8 },
        total: 2,
      });
      expect(outcome.resources.map((r) => r.id).sort()).toEqual(['g1', 'g2']);
    });

    it('fails with a ratio above 1, and when 7.1 fails even with a good ratio (ScubaGear: "Policy MS.AAD.7.1 failed")', () => {
      expect(
        runCheck(sut, [assignment('g1'), assignment('g2'), assignment('g3'), assignment('o1', USER_ADMIN)]),
      ).toMatchObject({ status: 'fail', observed: { globalAdmins: 3, otherPrivilegedUsers: 1 } });
      const single = runCheck(sut, [
        assignment('g1'),
        assignment('o1', USER_ADMIN),
        assignment('o2', USER_ADMIN),
      ]);
      expect(single).toMatchObject({ status: 'fail', note: expect.stringContaining('MS.AAD.7.1 fails') });
    });

    it('counts a role-assignable group holding a role by its members, and ignores non-privileged roles', () => {
      const group = record('group', 'grp', { isAssignableToRole: true });
      const members = ['m1', 'm2', 'm3'].map((m) =>
        record('group_membership', `grp:${m}`, { memberType: 'user' }),
      );
      const outcome = runCheck(sut, [
        group,
        ...members,
        assignment('g1'),
        assignment('g2'),
        assignment('grp', USER_ADMIN),
        assignment('x1', GLOBAL_READER),
      ]);
      expect(outcome).toMatchObject({
        status: 'pass',
        observed: { globalAdmins: 2, otherPrivilegedUsers: 3 },
      });
    });
  });

  describe('MS.AAD.7.5v1 highly privileged roles assigned through PIM only', () => {
    const sut = check('entra.admins.provisioned_outside_pim');
    const started = (principalId: string, start: string | null, role = GLOBAL_ADMINISTRATOR) =>
      record('role_assignment_schedule', `s-${principalId}`, {
        principalId,
        roleDefinitionId: role,
        assignmentType: 'Assigned',
        scheduleInfo: { startDateTime: start, expiration: { type: 'noExpiration', endDateTime: null } },
      });

    it('fails on a privileged schedule without a start date (an assignment made outside PIM), naming it', () => {
      const outcome = runCheck(sut, [
        assignment('u1'),
        assignment('u2'),
        started('u1', '2026-01-01T00:00:00Z'),
        started('u2', null),
        started('u3', null, GLOBAL_READER),
      ]);
      expect(outcome).toMatchObject({
        status: 'fail',
        total: 1,
        resources: [
          { id: 'u2', observed: { role: 'Global Administrator', schedule: 's-u2', startDateTime: null } },
        ],
        observed: { privilegedSchedules: 2 },
      });
      expect(runCheck(sut, [assignment('u1'), started('u1', '2026-01-01T00:00:00Z')])).toMatchObject({
        status: 'pass',
      });
    });

    it('is manual, naming the permission, when the backup holds privileged assignments but no PIM schedule', () => {
      expect(runCheck(sut, [assignment('u1')])).toMatchObject({
        status: 'manual',
        note: expect.stringContaining('RoleAssignmentSchedule.Read.Directory'),
      });
    });
  });

  it.each([
    ['entra.risk.high_risk_notification', 'MS.AAD.2.2v1', /Identity Protection/],
    ['entra.logging.diagnostic_settings', 'MS.AAD.4.1v1', /Azure Resource Manager/],
  ])('%s (%s) is manual with the reason no backup holds it', (id, policy, reason) => {
    expect(checkById(ENTRA_CHECKS, id)).toMatchObject({ policy });
    expect(runCheck(check(id), [])).toMatchObject({ status: 'manual', note: expect.stringMatching(reason) });
  });
});

describe('the Entra catalogue', () => {
  it('names the policy each check implements, one check per key', () => {
    expect(ENTRA_CHECKS.length).toBeGreaterThanOrEqual(25);
    for (const c of ENTRA_CHECKS)
      expect(c.policy).toMatch(/^(MS\.AAD\.\d+\.\d+v\d+|CIS M365 [\d.]+|CIS Controls [\d.]+)$/);
    expect(new Set(ENTRA_CHECKS.map((c) => c.key)).size).toBe(ENTRA_CHECKS.length);
  });
});
