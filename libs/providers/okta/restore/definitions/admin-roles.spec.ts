import { describe, expect, it } from '@jest/globals';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { childrenOf as liveChildrenOf, pairedLive } from '@libs/simulators/okta/testing/live-pairs.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

/** A prune deleting nothing of other types. */
const NOTHING_ELSE_GOES: ReadonlySet<string> = new Set();

const CONDITIONS = { include: { 'okta:ResourceAttribute/User/Profile': ['city', 'state'] } };

/** Restore writes of the admin role types against the simulator, one definition at a time. */
describe('admin role restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const childrenOf = (type: OktaResourceType, parentId: string) => liveChildrenOf(org, type, parentId);
  const paired = (backup: ResourceRecord) => pairedLive(org, sut, backup);
  const assignmentsOf = async (ownerId: string) => childrenOf('admin_role_assignment', ownerId);
  const ofType = (type: string) => (record: ResourceRecord) => record.data.type === type;

  useRestoreTestOrg({ users: 20, groups: 5, apps: 2, seed: 31 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates a deleted custom role with its permissions in one request, then their conditions', async () => {
    const role = (await org.find('custom_admin_role', (r) => r.name === 'App auditor'))!;
    const [first] = await childrenOf('custom_admin_role_permission', role.id);
    await org.call('PUT', `/api/v1/iam/roles/${role.id}/permissions/${first.name}`, {
      conditions: CONDITIONS,
    });
    const permissions = await childrenOf('custom_admin_role_permission', role.id);
    await org.call('DELETE', `/api/v1/iam/roles/${role.id}`);
    const before = org.sim.requestLog().byEndpoint;

    const result = await sut.apply({
      action: 'create',
      record: role,
      with: permissions.map((permission) => permission.id),
    });

    const after = org.sim.requestLog().byEndpoint;
    const createPermission = 'POST /api/v1/iam/roles/{roleIdOrLabel}/permissions/{permissionType}';
    expect(after[createPermission] ?? 0).toBe(before[createPermission] ?? 0);
    const restored = (await org.find('custom_admin_role', (r) => r.id === result.id))!;
    expect(result.id).not.toBe(role.id);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(role));
    const ids = new Map([[role.id, result.id]]);
    const conditioned = sut.rewrite(
      permissions.find((p) => p.id === first.id)!,
      ids,
    );
    const live = (await paired(conditioned))!;
    expect(sut.fingerprint(live)).not.toBe(sut.fingerprint(conditioned));
    await sut.apply({ action: 'update', record: conditioned, live: sut.live(live) });
    for (const permission of permissions.map((p) => sut.rewrite(p, ids)))
      expect(sut.fingerprint((await paired(permission))!)).toBe(sut.fingerprint(permission));
  });

  it("puts back a custom role's label and description; the label is its natural key", async () => {
    const role = (await org.find('custom_admin_role', (r) => r.name === 'Helpdesk lite'))!;
    await org.call('PUT', `/api/v1/iam/roles/${role.id}`, { label: 'Renamed', description: 'Changed' });
    const changed = (await org.find('custom_admin_role', (r) => r.id === role.id))!;

    await sut.apply({ action: 'update', record: role, live: sut.live(changed) });

    const restored = (await org.find('custom_admin_role', (r) => r.id === role.id))!;
    expect(restored.data).toMatchObject({ label: 'Helpdesk lite', description: role.data.description });
    expect(sut.naturalKey(restored)).toBe('Helpdesk lite');
  });

  it('adds back a removed permission, clears conditions added since, and prunes a permission', async () => {
    const role = (await org.find('custom_admin_role', (r) => r.name === 'Helpdesk lite'))!;
    const [removed, conditioned] = await childrenOf('custom_admin_role_permission', role.id);
    await org.call('DELETE', `/api/v1/iam/roles/${role.id}/permissions/${removed.name}`);
    await org.call('PUT', `/api/v1/iam/roles/${role.id}/permissions/${conditioned.name}`, {
      conditions: CONDITIONS,
    });
    await org.call('POST', `/api/v1/iam/roles/${role.id}/permissions/okta.groups.manage`);
    const live = async (id: string) => (await org.find('custom_admin_role_permission', (p) => p.id === id))!;
    const added = await live(`${role.id}:okta.groups.manage`);

    await sut.apply({ action: 'create', record: removed, with: [] });
    await sut.apply({ action: 'update', record: conditioned, live: sut.live(await live(conditioned.id)) });
    await sut.apply({ action: 'delete', type: 'custom_admin_role_permission', live: sut.live(added) });

    expect(sut.fingerprint(await live(removed.id))).toBe(sut.fingerprint(removed));
    // Okta answers a permission without conditions with `conditions: null` (recorded).
    expect((await live(conditioned.id)).data.conditions).toBeNull();
    expect(await org.find('custom_admin_role_permission', (p) => p.id === added.id)).toBeUndefined();
  });

  it('re-creates a deleted resource set, then its resources, binding and members under its new id', async () => {
    const set = (await org.find('resource_set', () => true))!;
    const children: ResourceRecord[] = [];
    for (const type of [
      'resource_set_resource',
      'resource_set_binding',
      'resource_set_binding_member',
    ] as const)
      children.push(...(await childrenOf(type, set.id)));
    expect(new Set(children.map((child) => child.type)).size).toBe(3);
    await org.call('DELETE', `/api/v1/iam/resource-sets/${set.id}`);

    const created = await sut.apply({ action: 'create', record: set, with: [] });
    const ids = new Map([[set.id, created.id]]);
    for (const child of children)
      await sut.apply({ action: 'create', record: sut.rewrite(child, ids), with: [] });

    const restored = (await org.find('resource_set', (s) => s.id === created.id))!;
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(set));
    for (const child of children.map((c) => sut.rewrite(c, ids))) {
      const live = await paired(child);
      expect([child.type, live && sut.fingerprint(live)]).toEqual([child.type, sut.fingerprint(child)]);
    }
  });

  it("puts back a resource set's label, and prunes a role, a resource set and a binding added since", async () => {
    const set = (await org.find('resource_set', () => true))!;
    await org.call('PUT', `/api/v1/iam/resource-sets/${set.id}`, { label: 'Renamed', description: 'x' });
    const role = await org.call('POST', '/api/v1/iam/roles', {
      label: 'Added since',
      description: 'Not in the backup',
      permissions: ['okta.users.read'],
    });
    const addedSet = await org.call('POST', '/api/v1/iam/resource-sets', {
      label: 'Added set',
      description: 'Not in the backup',
      resources: [],
    });
    await org.call('POST', `/api/v1/iam/resource-sets/${set.id}/bindings`, { role: role.id, members: [] });
    const live = async (type: OktaResourceType, id: string) => (await org.find(type, (r) => r.id === id))!;

    await sut.apply({ action: 'update', record: set, live: sut.live(await live('resource_set', set.id)) });
    const binding = await live('resource_set_binding', `${set.id}:${String(role.id)}`);
    await sut.apply({ action: 'delete', type: 'resource_set_binding', live: sut.live(binding) });
    for (const [type, id] of [
      ['resource_set', String(addedSet.id)],
      ['custom_admin_role', String(role.id)],
    ] as const)
      await sut.apply({ action: 'delete', type, live: sut.live(await live(type, id)) });

    expect((await live('resource_set', set.id)).data).toMatchObject({ label: set.data.label });
    expect(await org.find('resource_set_binding', (b) => b.id === binding.id)).toBeUndefined();
    expect(await org.find('resource_set', (s) => s.id === addedSet.id)).toBeUndefined();
    expect(await org.find('custom_admin_role', (r) => r.id === role.id)).toBeUndefined();
  });

  it("puts back a resource's conditions, and prunes a resource and a member added since", async () => {
    const set = (await org.find('resource_set', () => true))!;
    const [resource] = await childrenOf('resource_set_resource', set.id);
    const path = `/api/v1/iam/resource-sets/${set.id}/resources`;
    await org.call('PUT', `${path}/${resource.data.id}`, { conditions: { Exclude: { 'okta:ORN': ['x'] } } });
    const added = await org.call('POST', path, { resourceOrnOrUrl: `${org.sim.baseUrl}/api/v1/users` });
    const [binding] = await childrenOf('resource_set_binding', set.id);
    const members = JSON.stringify(await childrenOf('resource_set_binding_member', set.id));
    const user = (await org.records('user')).find((candidate) => !members.includes(candidate.id))!;
    await org.call('PATCH', `/api/v1/iam/resource-sets/${set.id}/bindings/${binding.data.id}/members`, {
      additions: [`${org.sim.baseUrl}/api/v1/users/${user.id}`],
    });
    const addedMember = (await org.find(
      'resource_set_binding_member',
      (m) => sut.naturalKey(m) === `${binding.id}:/api/v1/users/${user.id}`,
    ))!;
    const live = async (id: string) => org.find('resource_set_resource', (r) => r.id === id);

    await sut.apply({ action: 'update', record: resource, live: sut.live((await live(resource.id))!) });
    await sut.apply({
      action: 'delete',
      type: 'resource_set_resource',
      live: sut.live((await live(`${set.id}:${String(added.id)}`))!),
    });
    await sut.apply({ action: 'delete', type: 'resource_set_binding_member', live: sut.live(addedMember) });

    expect(sut.fingerprint((await live(resource.id))!)).toBe(sut.fingerprint(resource));
    expect(await live(`${set.id}:${String(added.id)}`)).toBeUndefined();
    expect(await org.find('resource_set_binding_member', (m) => m.id === addedMember.id)).toBeUndefined();
  });

  it('follows a re-created group into the ORN of a resource and a re-created user into a binding member', async () => {
    const set = (await org.find('resource_set', () => true))!;
    const [resource] = await childrenOf('resource_set_resource', set.id);
    const [member] = await childrenOf('resource_set_binding_member', set.id);
    const groupId = /groups:([0-9A-Za-z]{20})$/.exec(String(resource.data.orn))![1];
    const userId = /users\/([0-9A-Za-z]{20})/.exec(JSON.stringify(member.data._links))![1];
    const group = await org.call('POST', '/api/v1/groups', { profile: { name: 'Stand-in group' } });
    const user = (await org.records('user')).find((u) => u.id !== userId && u.data.status === 'ACTIVE')!;
    const ids = new Map([
      [groupId, String(group.id)],
      [userId, user.id],
    ]);

    for (const record of [resource, member].map((r) => sut.rewrite(r, ids))) {
      expect(JSON.stringify(record.data)).not.toMatch(new RegExp(`${groupId}|${userId}`));
      const result = await sut.apply({ action: 'create', record, with: [] });
      const live = (await org.find(record.type as OktaResourceType, (r) => r.id === result.id))!;
      expect(sut.naturalKey(live)).toBe(sut.naturalKey(record));
    }
    expect(sut.references(resource)).toContain(groupId);
  });

  it('re-grants a deleted standard role once, noting that it is org-wide until its targets follow', async () => {
    const assignment = (await org.find('admin_role_assignment', ofType('HELP_DESK_ADMIN')))!;
    const [userId] = assignment.id.split(':');
    await org.call('DELETE', `/api/v1/users/${userId}/roles/${String(assignment.data.id)}`);

    const result = await sut.apply({ action: 'create', record: assignment, with: [] });
    const again = await sut.apply({ action: 'create', record: assignment, with: [] });

    expect(result.notes.join(' ')).toMatch(/whole org until the backup's targets are added/);
    expect(again.id).toBe(result.id);
    const held = (await assignmentsOf(userId)).filter(ofType('HELP_DESK_ADMIN'));
    expect(held.map((a) => a.id)).toEqual([result.id]);
    expect(sut.naturalKey(held[0])).toBe(sut.naturalKey(assignment));
    expect(sut.fingerprint(held[0])).toBe(sut.fingerprint(assignment));
  });

  it("re-grants a custom role with its resource set, and a group's role", async () => {
    const set = (await org.find('resource_set', () => true))!;
    const role = (await org.find('custom_admin_role', (r) => r.name === 'Helpdesk lite'))!;
    const admins = JSON.stringify(await org.records('admin_role_assignment'));
    const user = (await org.records('user')).find(
      (u) => u.data.status === 'ACTIVE' && !admins.includes(u.id),
    )!;
    const [group] = (await org.records('group')).filter((g) => g.data.type === 'OKTA_GROUP');
    await org.call('POST', `/api/v1/users/${user.id}/roles`, {
      type: 'CUSTOM',
      role: role.id,
      'resource-set': set.id,
    });
    await org.call('POST', `/api/v1/groups/${group.id}/roles`, { type: 'USER_ADMIN' });
    const [custom] = await assignmentsOf(user.id);
    const [groupRole] = await assignmentsOf(group.id);
    await org.call('DELETE', `/api/v1/users/${user.id}/roles/${String(custom.data.id)}`);
    await org.call('DELETE', `/api/v1/groups/${group.id}/roles/${String(groupRole.data.id)}`);

    for (const record of [custom, groupRole]) {
      const result = await sut.apply({ action: 'create', record, with: [] });
      const live = (await org.find('admin_role_assignment', (a) => a.id === result.id))!;
      expect([result.id === record.id, sut.naturalKey(live)]).toEqual([false, sut.naturalKey(record)]);
      expect(sut.fingerprint(live)).toBe(sut.fingerprint(record));
    }
    expect(sut.naturalKey(custom)).toBe(`USER:${user.id}:CUSTOM:${role.id}:${set.id}`);
    expect(sut.naturalKey(groupRole)).toBe(`GROUP:${group.id}:USER_ADMIN`);
  });

  it('prunes an assignment granted since the backup', async () => {
    const [user] = (await org.records('user')).filter((u) => u.data.status === 'ACTIVE');
    const granted = await org.call('POST', `/api/v1/users/${user.id}/roles`, { type: 'REPORT_ADMIN' });
    const live = (await org.find(
      'admin_role_assignment',
      (a) => a.id === `${user.id}:${String(granted.id)}`,
    ))!;

    await sut.apply({ action: 'delete', type: 'admin_role_assignment', live: sut.live(live) });

    expect((await assignmentsOf(user.id)).filter(ofType('REPORT_ADMIN'))).toEqual([]);
  });

  describe('lockout guard', () => {
    const superAdmins = async () =>
      (await org.records('admin_role_assignment')).filter(ofType('SUPER_ADMIN'));
    const others = async () =>
      (await org.records('admin_role_assignment')).filter((a) => !ofType('SUPER_ADMIN')(a));

    it("never prunes the org's last super admin assignment, and prunes the others", async () => {
      const [only] = await superAdmins();
      const deleting = [only, ...(await others())].map((record) => sut.live(record));

      const kept = sut.guardDeletions('admin_role_assignment', deleting, [], NOTHING_ELSE_GOES);

      expect(sut.guardedTypes).toContain('admin_role_assignment');
      expect([...kept.keys()]).toEqual([only.id]);
      expect(kept.get(only.id)).toMatch(/last super admin/);
      for (const live of deleting.filter((resource) => !kept.has(resource.id)))
        await sut.apply({ action: 'delete', type: 'admin_role_assignment', live });
      expect((await org.records('admin_role_assignment')).map((a) => a.id)).toEqual([only.id]);
    });

    it('lets a super admin assignment go while another user keeps one', async () => {
      const [original] = await superAdmins();
      const [user] = (await org.records('user')).filter(
        (u) => u.data.status === 'ACTIVE' && u.id !== original.id.split(':')[0],
      );
      await org.call('POST', `/api/v1/users/${user.id}/roles`, { type: 'SUPER_ADMIN' });
      const [second] = await assignmentsOf(user.id);

      expect(
        sut.guardDeletions(
          'admin_role_assignment',
          [sut.live(original)],
          [sut.live(second)],
          NOTHING_ELSE_GOES,
        ).size,
      ).toBe(0);
      const both = sut.guardDeletions(
        'admin_role_assignment',
        [original, second].map((r) => sut.live(r)),
        [],
        NOTHING_ELSE_GOES,
      );
      expect(both.size).toBe(1);
    });

    it("keeps a user's super admin assignment when only a group's would remain", async () => {
      const [group] = (await org.records('group')).filter((g) => g.data.type === 'OKTA_GROUP');
      await org.call('POST', `/api/v1/groups/${group.id}/roles`, { type: 'SUPER_ADMIN' });
      const held = await superAdmins();
      const byGroup = held.filter((a) => a.id.startsWith(group.id));
      const byUsers = held.filter((a) => !a.id.startsWith(group.id));
      expect(byGroup).toHaveLength(1);

      const kept = sut.guardDeletions(
        'admin_role_assignment',
        byUsers.map((r) => sut.live(r)),
        byGroup.map((r) => sut.live(r)),
        NOTHING_ELSE_GOES,
      );

      expect([...kept.keys()]).toEqual([byUsers[0].id]);
      expect(
        sut.guardDeletions(
          'admin_role_assignment',
          byGroup.map((r) => sut.live(r)),
          byUsers.map((r) => sut.live(r)),
          NOTHING_ELSE_GOES,
        ).size,
      ).toBe(0);
    });
  });
});
