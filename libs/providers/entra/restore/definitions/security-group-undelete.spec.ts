import { describe, expect, it } from '@jest/globals';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';

/**
 * A deleted cloud security group, which since February-March 2026 waits 30 days in the deleted
 * items ("When deleted, both Microsoft 365 and security groups are moved to a temporary container
 * and can be restored within 30 days", learn.microsoft.com/graph/api/group-delete; message
 * center MC1183299), comes back from there through the restore's undelete path: with its id, so
 * the role assignments and conditional access policies that name it still do, and role-assignable,
 * which Graph lets only a creation set ("Update group": `isAssignableToRole` is not updatable).
 */
describe('a deleted security group, restored from the deleted items (Graph simulator over HTTPS)', () => {
  let tenant: RestoreTestTenant;
  useRestoreTestTenant({ users: 6, groups: 2, seed: 51 }, (started) => {
    tenant = started;
  });

  it('comes back with its id, role-assignable, with its members, and the policy naming it unchanged', async () => {
    const [user] = await tenant.records('user');
    const created = await tenant.adminCall('POST', '/v1.0/groups', {
      displayName: 'Tier 0 admins',
      mailEnabled: false,
      mailNickname: 'tier0',
      securityEnabled: true,
      isAssignableToRole: true,
    });
    await tenant.adminCall('POST', `/v1.0/groups/${String(created.id)}/members/$ref`, {
      '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${user.id}`,
    });
    const policy = await tenant.adminCall('POST', '/v1.0/identity/conditionalAccess/policies', {
      displayName: 'Tier 0 from compliant devices',
      state: 'enabledForReportingButNotEnforced',
      conditions: {
        users: { includeGroups: [String(created.id)] },
        applications: { includeApplications: ['All'] },
      },
      grantControls: { operator: 'OR', builtInControls: ['compliantDevice'] },
    });
    const group = (await tenant.record('group', String(created.id)))!;
    const policyBefore = (await tenant.record('conditional_access_policy', String(policy.id)))!;

    await tenant.adminCall('DELETE', `/v1.0/groups/${String(created.id)}`);
    const bin = (await tenant.adminCall('GET', '/v1.0/directory/deletedItems/microsoft.graph.group')) as {
      value: Array<{ id: string }>;
    };
    expect(bin.value.map((item) => item.id)).toContain(String(created.id));

    const sut = await tenant.prepared(['group']);
    const result = await tenant.restore(sut, group);

    expect(result).toEqual({
      id: String(created.id),
      notes: ['Restored from the deleted items with its id, so what refers to it still does'],
    });
    const live = (await tenant.record('group', String(created.id)))!;
    expect(live.data).toMatchObject({
      id: String(created.id),
      isAssignableToRole: true,
      securityEnabled: true,
    });
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(group));
    expect((await tenant.records('group_membership')).map((record) => record.id)).toContain(
      `${String(created.id)}:${user.id}`,
    );
    expect((await tenant.record('conditional_access_policy', String(policy.id)))!.data).toEqual(
      policyBefore.data,
    );
  });
});
