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
  ])('%s is manual: PIM settings are not in the backup, and the note names the permission', (id) => {
    expect(runCheck(check(id), [])).toMatchObject({
      status: 'manual',
      resourceType: 'role_management_policy',
      note: expect.stringContaining('RoleManagementPolicy.Read.Directory'),
    });
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
