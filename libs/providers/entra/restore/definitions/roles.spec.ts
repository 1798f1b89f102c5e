import { describe, expect, it } from '@jest/globals';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';
import { GLOBAL_ADMINISTRATOR } from './roles.js';

const BASE = '/v1.0/roleManagement/directory';

/** Restore writes of custom roles, role assignments and PIM schedules against the simulator. */
describe('role restore definitions (Graph simulator over HTTPS)', () => {
  let tenant: RestoreTestTenant;
  useRestoreTestTenant({ users: 10, groups: 3, seed: 31 }, (started) => {
    tenant = started;
  });

  const paired = async (sut: ProviderRestorer, backup: ResourceRecord) =>
    pairedRecord(await tenant.records(backup.type as EntraResourceType), sut, backup);

  it('assigns a role again by what it grants, and removes an assignment (prune)', async () => {
    const assignment = (await tenant.records('role_assignment')).find((a) =>
      String(a.data.directoryScopeId).startsWith('/administrativeUnits/'),
    )!;
    await tenant.adminCall('DELETE', `${BASE}/roleAssignments/${assignment.id}`);
    const sut = await tenant.prepared(['role_assignment']);
    expect(sut.support('role_assignment')).toMatchObject({ create: true, update: true, delete: true });

    await sut.apply({ action: 'create', record: assignment, with: [] });

    const live = (await paired(sut, assignment))!;
    expect(live.data).toMatchObject({ directoryScopeId: assignment.data.directoryScopeId });
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(assignment));
    await sut.apply({ action: 'delete', type: 'role_assignment', live: sut.live(live) });
    expect(await paired(sut, assignment)).toBeUndefined();
  });

  it('grants anew an assignment matched by id whose record names a re-created principal', async () => {
    const [assignment] = await tenant.records('role_assignment');
    const [, , , other] = await tenant.records('user');
    const sut = await tenant.prepared(['role_assignment']);
    // The restore's id map pointed the backed-up assignment at the user re-created for its principal.
    const rewritten = { ...assignment, data: { ...assignment.data, principalId: other.id } };
    const result = await sut.apply({ action: 'update', record: rewritten, live: sut.live(assignment) });
    expect(result.notes).toEqual([expect.stringMatching(/granted to it anew/)]);
    const granted = (await tenant.records('role_assignment')).filter(
      (a) => a.data.principalId === other.id && a.data.roleDefinitionId === assignment.data.roleDefinitionId,
    );
    expect(granted).toHaveLength(1);
  });

  it("keeps the tenant's last active Global Administrator assignment from a prune", async () => {
    const [first, second] = (await tenant.records('user')).slice(6);
    for (const user of [first, second])
      await tenant.adminCall('POST', `${BASE}/roleAssignments`, {
        principalId: user.id,
        roleDefinitionId: GLOBAL_ADMINISTRATOR,
        directoryScopeId: '/',
      });
    const sut = await tenant.prepared(['role_assignment']);
    const globalAdmins = (await tenant.records('role_assignment'))
      .filter((a) => a.data.roleDefinitionId === GLOBAL_ADMINISTRATOR)
      .map((a) => sut.live(a));
    expect(globalAdmins).toHaveLength(2);

    const kept = sut.guardDeletions('role_assignment', globalAdmins, [], new Set());
    expect([...kept.keys()]).toEqual([globalAdmins[0].id]);
    expect([...kept.values()][0]).toMatch(/last active Global Administrator/);
    expect(sut.guardDeletions('role_assignment', [globalAdmins[0]], [globalAdmins[1]], new Set()).size).toBe(
      0,
    );
  });

  const scheduleKinds: ReadonlyArray<[EntraResourceType, string]> = [
    ['role_eligibility_schedule', 'roleEligibilityScheduleRequests'],
    ['role_assignment_schedule', 'roleAssignmentScheduleRequests'],
  ];
  for (const [type, requests] of scheduleKinds)
    it(`writes a ${type} through schedule requests: assigned again, its schedule put back, removed`, async () => {
      const [schedule] = await tenant.records(type);
      const { principalId, roleDefinitionId, directoryScopeId } = schedule.data;
      await tenant.adminCall('POST', `${BASE}/${requests}`, {
        action: 'adminRemove',
        principalId,
        roleDefinitionId,
        directoryScopeId,
      });
      const sut = await tenant.prepared([type]);

      const result = await sut.apply({ action: 'create', record: schedule, with: [] });

      const live = (await paired(sut, schedule))!;
      expect(live.id).toBe(result.id);
      expect(live.data.scheduleInfo).toEqual(schedule.data.scheduleInfo);
      expect(sut.fingerprint(live)).toBe(sut.fingerprint(schedule));

      const later = {
        startDateTime: '2026-01-01T00:00:00Z',
        recurrence: null,
        expiration: { type: 'noExpiration', endDateTime: null, duration: null },
      };
      await tenant.adminCall('POST', `${BASE}/${requests}`, {
        action: 'adminUpdate',
        principalId,
        roleDefinitionId,
        directoryScopeId,
        scheduleInfo: later,
        justification: 'Changed by the spec',
      });
      const changed = (await paired(sut, schedule))!;
      expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(schedule));
      await sut.apply({ action: 'update', record: schedule, live: sut.live(changed) });
      expect((await paired(sut, schedule))!.data.scheduleInfo).toEqual(schedule.data.scheduleInfo);

      await sut.apply({ action: 'delete', type, live: sut.live((await paired(sut, schedule))!) });
      expect(await paired(sut, schedule)).toBeUndefined();
      // Gone already: fine.
      await sut.apply({ action: 'delete', type, live: sut.live(schedule) });
    });

  // Last: the schedules and assignments above name the custom role.
  it('re-creates a deleted custom role and puts back a changed description; built-ins are never written', async () => {
    const [role] = await tenant.records('role_definition');
    await tenant.adminCall('DELETE', `${BASE}/roleDefinitions/${role.id}`);
    const sut = await tenant.prepared(['role_definition']);

    const result = await sut.apply({ action: 'create', record: role, with: [] });

    expect(result.id).not.toBe(role.id);
    const live = (await paired(sut, role))!;
    expect(live.id).toBe(result.id);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(role));
    await tenant.adminCall('PATCH', `${BASE}/roleDefinitions/${result.id}`, { description: 'Changed' });
    await sut.apply({ action: 'update', record: role, live: sut.live((await paired(sut, role))!) });
    expect(sut.fingerprint((await paired(sut, role))!)).toBe(sut.fingerprint(role));
    expect(sut.managedBecause({ ...role, data: { ...role.data, isBuiltIn: true } })).toMatch(/built-in/i);
  });
});
