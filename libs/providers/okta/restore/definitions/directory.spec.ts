import { describe, expect, it } from '@jest/globals';
import type { LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

/** Restore writes of the directory types against the simulator, one definition at a time. */
describe('directory restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const live = (record: ResourceRecord): LiveResource => sut.live(record);
  const byName = (name: string) => (record: ResourceRecord) => record.name === name;

  useRestoreTestOrg({ users: 30, groups: 5, apps: 2, seed: 11 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates a deleted group with its profile, under a new id', async () => {
    const [backedUp] = (await org.records('group')).filter((group) => group.data.type === 'OKTA_GROUP');
    await org.call('DELETE', `/api/v1/groups/${backedUp.id}`);

    const result = await sut.apply({ action: 'create', record: backedUp, with: [] });

    const restored = await org.find('group', (group) => group.id === result.id);
    expect(result.id).not.toBe(backedUp.id);
    expect(restored && sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
    expect(sut.naturalKey(restored!)).toBe(sut.naturalKey(backedUp));
  });

  it('puts back a changed group profile, and then sees nothing to do', async () => {
    const [backedUp] = (await org.records('group')).filter((group) => group.data.type === 'OKTA_GROUP');
    await org.call('PUT', `/api/v1/groups/${backedUp.id}`, {
      profile: { name: 'Renamed', description: 'x' },
    });
    const changed = (await org.find('group', (group) => group.id === backedUp.id))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(backedUp));

    await sut.apply({ action: 'update', record: backedUp, live: live(changed) });

    const restored = (await org.find('group', (group) => group.id === backedUp.id))!;
    expect(restored.data.profile).toEqual(backedUp.data.profile);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('leaves the groups Okta manages to Okta, and their memberships too', async () => {
    await sut.prepare(['group_membership']);
    const everyone = (await org.find('group', (group) => group.data.type === 'BUILT_IN'))!;
    const [membership] = (await org.records('group_membership')).filter((m) =>
      m.id.startsWith(`${everyone.id}:`),
    );

    expect(sut.managedBecause(everyone)).toMatch(/Everyone/);
    expect(sut.managedBecause(membership)).toMatch(/Everyone/);
  });

  it('re-creates a deleted user with its memberships in one request, STAGED without activateUsers', async () => {
    const user = (await org.find('user', (candidate) => candidate.data.status === 'ACTIVE'))!;
    const memberships = (await org.records('group_membership')).filter((m) => m.id.endsWith(`:${user.id}`));
    const own = memberships.filter((m) => sut.managedBecause(m) === null);
    expect(own.length).toBeGreaterThan(0);
    await org.call('DELETE', `/api/v1/users/${user.id}`);
    await org.call('DELETE', `/api/v1/users/${user.id}`);
    const before = org.sim.requestLog().byEndpoint;

    const result = await sut.apply({ action: 'create', record: user, with: memberships.map((m) => m.id) });

    const restored = (await org.find('user', (candidate) => candidate.id === result.id))!;
    expect(restored.data.profile).toEqual(user.data.profile);
    expect(restored.data.status).toBe('STAGED');
    expect(result.notes.join(' ')).toMatch(/activateUsers/);
    const groupsNow = (await org.records('group_membership'))
      .filter((m) => m.id.endsWith(`:${result.id}`))
      .map((m) => m.id.split(':')[0]);
    expect(groupsNow.sort()).toEqual(memberships.map((m) => m.id.split(':')[0]).sort());
    const after = org.sim.requestLog().byEndpoint;
    expect(after['PUT /api/v1/groups/{groupId}/users/{userId}'] ?? 0).toBe(
      before['PUT /api/v1/groups/{groupId}/users/{userId}'] ?? 0,
    );
    // A STAGED user counts as restored when nobody may be activated: a second run does nothing.
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(user));
  });

  it('sends activation with activateUsers: the re-created user waits PROVISIONED for a password', async () => {
    const activating = org.restorer({ activateUsers: true });
    const user = (await org.find('user', (candidate) => candidate.data.status === 'ACTIVE'))!;
    await org.call('DELETE', `/api/v1/users/${user.id}`);
    await org.call('DELETE', `/api/v1/users/${user.id}`);

    const result = await activating.apply({ action: 'create', record: user, with: [] });

    const restored = (await org.find('user', (candidate) => candidate.id === result.id))!;
    expect(restored.data.status).toBe('PROVISIONED');
    expect(activating.fingerprint(restored)).toBe(activating.fingerprint(user));
  });

  it('re-creates a DEPROVISIONED user as DEPROVISIONED', async () => {
    const user = (await org.find('user', (candidate) => candidate.data.status === 'DEPROVISIONED'))!;
    await org.call('DELETE', `/api/v1/users/${user.id}`);

    const result = await sut.apply({ action: 'create', record: user, with: [] });

    const restored = (await org.find('user', (candidate) => candidate.id === result.id))!;
    expect(restored.data.status).toBe('DEPROVISIONED');
  });

  it('unsuspends a user suspended since the backup and puts back the profile', async () => {
    const user = (await org.find('user', (candidate) => candidate.data.status === 'ACTIVE'))!;
    await org.call('POST', `/api/v1/users/${user.id}/lifecycle/suspend`);
    await org.call('POST', `/api/v1/users/${user.id}`, { profile: { title: 'Changed' } });
    const changed = (await org.find('user', (candidate) => candidate.id === user.id))!;

    await sut.apply({ action: 'update', record: user, live: live(changed) });

    const restored = (await org.find('user', (candidate) => candidate.id === user.id))!;
    expect(restored.data.status).toBe('ACTIVE');
    expect(restored.data.profile).toEqual(user.data.profile);
  });

  it('changes an ACTIVE group rule by deactivating it first, and activates it again', async () => {
    const rule = (await org.find('group_rule', (candidate) => candidate.data.status === 'ACTIVE'))!;
    await org.call('POST', `/api/v1/groups/rules/${rule.id}/lifecycle/deactivate`);
    await org.call('PUT', `/api/v1/groups/rules/${rule.id}`, { ...rule.data, name: 'Renamed rule' });
    await org.call('POST', `/api/v1/groups/rules/${rule.id}/lifecycle/activate`);
    const changed = (await org.find('group_rule', (candidate) => candidate.id === rule.id))!;

    await sut.apply({ action: 'update', record: rule, live: live(changed) });

    const restored = (await org.find('group_rule', (candidate) => candidate.id === rule.id))!;
    expect(restored.data.status).toBe('ACTIVE');
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(rule));
  });

  it('re-creates a deleted ACTIVE group rule ACTIVE, and deletes one by deactivating it first', async () => {
    const rule = (await org.find('group_rule', (candidate) => candidate.data.status === 'ACTIVE'))!;
    await sut.apply({ action: 'delete', type: 'group_rule', live: live(rule) });
    expect(await org.find('group_rule', (candidate) => candidate.id === rule.id)).toBeUndefined();

    const result = await sut.apply({ action: 'create', record: rule, with: [] });

    const restored = (await org.find('group_rule', byName(rule.name!)))!;
    expect(restored.id).toBe(result.id);
    expect(restored.data.status).toBe('ACTIVE');
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(rule));
  });

  it('follows a re-created group into the rules that name it, through the id map', async () => {
    const rule = (await org.find('group_rule', () => true))!;
    const groupId = (rule.data.actions as { assignUserToGroups: { groupIds: string[] } }).assignUserToGroups
      .groupIds[0];
    const group = (await org.find('group', (candidate) => candidate.id === groupId))!;
    const recreated = await org.call('POST', '/api/v1/groups', { profile: { name: 'Stand-in' } });
    const ids = new Map([[groupId, String(recreated.id)]]);

    const rewritten = sut.rewrite(rule, ids);

    expect(sut.references(rule)).toContain(groupId);
    expect(JSON.stringify(rewritten.data)).toContain(String(recreated.id));
    expect(JSON.stringify(rewritten.data)).not.toContain(groupId);
    expect(sut.rewrite(group, ids).id).toBe(recreated.id);
  });

  it('adds and removes memberships and group owners', async () => {
    const [group] = (await org.records('group')).filter((candidate) => candidate.data.type === 'OKTA_GROUP');
    const [user] = await org.records('user');
    const membership: ResourceRecord = {
      type: 'group_membership',
      id: `${group.id}:${user.id}`,
      name: null,
      data: { groupId: group.id, userId: user.id },
    };
    await sut.apply({ action: 'delete', type: 'group_membership', live: live(membership) });
    expect(await org.find('group_membership', (m) => m.id === membership.id)).toBeUndefined();
    await sut.apply({ action: 'create', record: membership, with: [] });
    expect(await org.find('group_membership', (m) => m.id === membership.id)).toBeDefined();

    const owner: ResourceRecord = {
      type: 'group_owner',
      id: `${group.id}:${user.id}`,
      name: null,
      data: { id: user.id, type: 'USER' },
    };
    const created = await sut.apply({ action: 'create', record: owner, with: [] });
    expect(created.id).toBe(owner.id);
    const listed = (await org.find('group_owner', (candidate) => candidate.id === owner.id))!;
    expect(sut.fingerprint(listed)).toBe(sut.fingerprint(owner));
    await sut.apply({ action: 'delete', type: 'group_owner', live: live(listed) });
    expect(await org.find('group_owner', (candidate) => candidate.id === owner.id)).toBeUndefined();
  });
});
