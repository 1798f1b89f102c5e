import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { runBackup } from './support/backup-helpers.js';
import { type EntraRestoreSetup, startEntraRestoreSetup } from './support/entra-restore-setup.js';
import { runRestore } from './support/restore-helpers.js';

const FIXTURE = scubaGearFile();

/** User Administrator, a built-in role of every tenant (Microsoft Entra built-in roles). */
const USER_ADMINISTRATOR = 'fe930be7-5e62-47db-91af-98c3a49a38b1';
const ROLE_TYPES = [
  'role_management_policy',
  'role_management_policy_assignment',
  'role_eligibility_schedule',
  'role_assignment_schedule',
  'role_assignment',
];

/** The tenant's own PIM administrator: role assignments, schedules and role settings. */
const ADMIN_ROLES = [
  'RoleManagement.ReadWrite.Directory',
  'RoleEligibilitySchedule.ReadWrite.Directory',
  'RoleAssignmentSchedule.ReadWrite.Directory',
  'RoleManagementPolicy.ReadWrite.Directory',
];

interface PreviewRow {
  resourceType: string;
  create: number;
  update: number;
  skip: number;
  notes: string[];
}

type Json = Record<string, unknown>;

/**
 * A tenant managed with Privileged Identity Management, restored end to end (HTTP API, real
 * PostgreSQL, the Graph simulator over HTTPS): an active assignment made through PIM with an
 * end, one made directly through the role assignments API (permanent), and an eligibility a user
 * has activated just in time, under a role whose PIM settings require active assignments to end
 * within 180 days ("unifiedRoleManagementPolicyExpirationRule"). Each active assignment is both a
 * role assignment and an assignment schedule in the backup; the restore books each grant once,
 * never makes the activation a standing assignment, and the preview names the permanent
 * assignment the role's policy refuses, which then fails with Graph's
 * RoleAssignmentRequestPolicyValidationFailed.
 */
(FIXTURE ? describe : describe.skip)('Entra ID PIM restores (HTTP, real PostgreSQL, Graph simulator)', () => {
  let setup: EntraRestoreSetup;
  let backup: BackupDto;
  /** u1: active through PIM for 90 days; u2: eligible, activated; u3: assigned directly, permanent */
  let u1: string;
  let u2: string;
  let u3: string;

  const auth = () => ({ Authorization: `Bearer ${setup.admin.token}` });
  const call = (method: string, path: string, body?: unknown) => setup.call(method, path, body);
  /** The tenant's grants of the role to `principalId`: role assignments and assignment schedules. */
  const grantsOf = (principalId: string) => {
    const state = setup.tenant.sim.snapshot();
    const mine = (records: Array<{ data: Json }>) =>
      records.filter(
        ({ data }) => data.principalId === principalId && data.roleDefinitionId === USER_ADMINISTRATOR,
      );
    return {
      assignments: mine(state.role_assignment).length,
      schedules: mine(state.role_assignment_schedule).map(({ data }) => data.assignmentType),
      eligibilities: mine(state.role_eligibility_schedule).length,
    };
  };
  const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

  beforeAll(async () => {
    setup = await startEntraRestoreSetup(
      { scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 12, groups: 2, seed: 51 },
      ADMIN_ROLES,
    );

    const snapshot = setup.tenant.sim.snapshot();
    const holders = new Set(
      [...snapshot.role_assignment, ...snapshot.role_eligibility_schedule].map(
        ({ data }) => data.principalId,
      ),
    );
    [u1, u2, u3] = snapshot.user.map(({ id }) => id).filter((id) => !holders.has(id));
    // The role's PIM settings: active assignments end within 180 days.
    const policyId = snapshot.role_management_policy_assignment.find(
      ({ data }) => data.roleDefinitionId === USER_ADMINISTRATOR,
    )!.data.policyId as string;
    await call('PATCH', `/policies/roleManagementPolicies/${policyId}/rules/Expiration_Admin_Assignment`, {
      '@odata.type': '#microsoft.graph.unifiedRoleManagementPolicyExpirationRule',
      id: 'Expiration_Admin_Assignment',
      isExpirationRequired: true,
      maximumDuration: 'P180D',
    });
    const request = (principalId: string, end: string | null) => ({
      action: 'adminAssign',
      principalId,
      roleDefinitionId: USER_ADMINISTRATOR,
      directoryScopeId: '/',
      justification: 'PIM e2e',
      scheduleInfo: {
        startDateTime: new Date().toISOString(),
        expiration: end
          ? { type: 'afterDateTime', endDateTime: end }
          : { type: 'noExpiration', endDateTime: null, duration: null },
      },
    });
    // The policy refuses a permanent active assignment through PIM...
    const refused = await setup.graph.call(
      'POST',
      '/v1.0/roleManagement/directory/roleAssignmentScheduleRequests',
      request(u1, null),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('RoleAssignmentRequestPolicyValidationFailed');
    // ...and takes one that ends in 90 days.
    await call('POST', '/roleManagement/directory/roleAssignmentScheduleRequests', request(u1, days(90)));
    await call('POST', '/roleManagement/directory/roleEligibilityScheduleRequests', request(u2, days(300)));
    setup.tenant.sim.activate(u2, USER_ADMINISTRATOR, 8);
    await call('POST', '/roleManagement/directory/roleAssignments', {
      principalId: u3,
      roleDefinitionId: USER_ADMINISTRATOR,
      directoryScopeId: '/',
    });
    // Every active grant is a role assignment and a schedule; the activation is one too.
    expect(grantsOf(u1)).toEqual({ assignments: 1, schedules: ['Assigned'], eligibilities: 0 });
    expect(grantsOf(u2)).toEqual({ assignments: 1, schedules: ['Activated'], eligibilities: 1 });
    expect(grantsOf(u3)).toEqual({ assignments: 1, schedules: ['Assigned'], eligibilities: 0 });

    backup = await runBackup(setup.ctx, setup.admin.token, { connectionId: setup.connectionId });
    expect(backup.status).toBe('completed');
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('backs up the role management policies with their rules and which role each governs', () => {
    const state = setup.tenant.sim.snapshot();
    const governing = state.role_management_policy_assignment.find(
      ({ data }) => data.roleDefinitionId === USER_ADMINISTRATOR,
    )!;
    const policy = state.role_management_policy.find(({ id }) => id === governing.data.policyId)!;
    expect(
      (policy.data.rules as Json[]).find((rule) => rule.id === 'Expiration_Admin_Assignment'),
    ).toMatchObject({
      isExpirationRequired: true,
      maximumDuration: 'P180D',
    });
    expect(backup.resource_counts).toMatchObject({
      role_management_policy: state.role_management_policy.length,
      role_management_policy_assignment: state.role_management_policy_assignment.length,
    });
  });

  it('restores each grant once, never the activation as a standing assignment, and names the policy violation in the preview', async () => {
    // The incident: all three lose the role (the activation's end comes with it).
    for (const principalId of [u1, u2, u3])
      for (const assignment of setup.tenant.sim
        .snapshot()
        .role_assignment.filter(
          ({ data }) => data.principalId === principalId && data.roleDefinitionId === USER_ADMINISTRATOR,
        ))
        await call('DELETE', `/roleManagement/directory/roleAssignments/${assignment.id}`);
    expect(grantsOf(u2)).toEqual({ assignments: 0, schedules: [], eligibilities: 1 });

    const preview = await setup.ctx.http
      .get('/api/restore')
      .set(auth())
      .query({ backupId: backup.id, resourceTypes: ROLE_TYPES.join(',') });
    expect(preview.status).toBe(200);
    const rows = preview.body.preview as PreviewRow[];
    const schedules = rows.find((row) => row.resourceType === 'role_assignment_schedule')!;
    // u1's and u3's schedules come back; the activation does not.
    expect(schedules.create).toBe(2);
    expect(schedules.notes.join('\n')).toMatch(/just-in-time activation/);
    const violation = schedules.notes.find((note) => note.includes(`active assignment of ${u3}`));
    expect(violation).toMatch(/RoleAssignmentRequestPolicyValidationFailed/);
    expect(violation).toMatch(/ExpirationRule/);
    expect(schedules.notes.some((note) => note.includes(`active assignment of ${u1}`))).toBe(false);
    const assignments = rows.find((row) => row.resourceType === 'role_assignment')!;
    expect(assignments.notes.join('\n')).toMatch(/just-in-time activation/);

    const restored = await runRestore(setup.ctx, setup.admin.token, {
      backupId: backup.id,
      mode: 'selective',
      resourceTypes: ROLE_TYPES,
    });
    const failed = restored.items.filter((item) => item.outcome === 'failed');
    // Graph refuses u3's permanent schedule, naming the rule, as the preview said.
    expect(failed).toEqual([
      expect.objectContaining({ resourceType: 'role_assignment_schedule', action: 'create' }),
    ]);
    expect(String(failed[0].error)).toMatch(/RoleAssignmentRequestPolicyValidationFailed.*ExpirationRule/);
    // u1 back through PIM, once; u3 back through the role assignments API, once (Graph lists the
    // schedule with it); u2 eligible, not active.
    expect(grantsOf(u1)).toEqual({ assignments: 1, schedules: ['Assigned'], eligibilities: 0 });
    expect(grantsOf(u3)).toEqual({ assignments: 1, schedules: ['Assigned'], eligibilities: 0 });
    expect(grantsOf(u2)).toEqual({ assignments: 0, schedules: [], eligibilities: 1 });
    // No item booked a grant Graph already held.
    expect(JSON.stringify(restored.items)).not.toMatch(/RoleAssignmentExists/);
  });
});
