import { describe, expect, it } from '@jest/globals';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { childrenOf } from '@libs/simulators/okta/testing/live-pairs.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

const NOTHING_ELSE_GOES: ReadonlySet<string> = new Set();

/** Restore writes of admin role targets against the simulator (Role Targets API). */
describe('admin role target restore definition (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const targets = () => org.records('admin_role_target');
  const targetsOf = (assignmentId: string) => childrenOf(org, 'admin_role_target', assignmentId);
  const assignment = async (roleType: string) =>
    (await org.find('admin_role_assignment', (a) => a.data.type === roleType))!;
  const keys = (records: ResourceRecord[]) => records.map((r) => sut.naturalKey(r)).sort();
  const fingerprints = (records: ResourceRecord[]) => records.map((r) => sut.fingerprint(r)).sort();
  const path = (record: ResourceRecord) => {
    const [ownerId, assignmentId] = record.id.split(':');
    return `/api/v1/${record.data.assignmentType === 'GROUP' ? 'groups' : 'users'}/${ownerId}/roles/${assignmentId}`;
  };

  useRestoreTestOrg({ users: 20, groups: 10, apps: 3, seed: 37 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-grants an unassigned scoped role, then its targets under its new id: the role comes back scoped', async () => {
    const role = await assignment('HELP_DESK_ADMIN');
    const backup = await targetsOf(role.id);
    expect(backup).toHaveLength(1);
    await org.call('DELETE', path(role));
    expect(await targetsOf(role.id)).toEqual([]);

    const granted = await sut.apply({ action: 'create', record: role, with: [] });
    const ids = new Map([[role.id.split(':')[1], granted.id.split(':')[1]]]);
    for (const target of backup) {
      const rewritten = sut.rewrite(target, ids);
      expect((await sut.apply({ action: 'create', record: rewritten, with: [] })).id).toBe(rewritten.id);
    }

    expect(granted.notes.join(' ')).toMatch(/whole org until the backup's targets are added/);
    const restored = await targetsOf(granted.id);
    expect(keys(restored)).toEqual(keys(backup));
    expect(fingerprints(restored)).toEqual(fingerprints(backup));
    const listed = await org.call('GET', `${path({ ...role, id: granted.id })}/targets/groups`);
    expect((listed as unknown as Array<{ id: string }>).map((g) => g.id)).toEqual([backup[0].data.groupId]);
  });

  it("re-adds a group target removed from a group's role, and an app instance and OIN app target", async () => {
    const groupAdmin = await assignment('USER_ADMIN');
    const appAdmin = await assignment('APP_ADMIN');
    const [removedGroup] = await targetsOf(groupAdmin.id);
    const [instance, catalog] = await targetsOf(appAdmin.id);
    expect([instance.data.appId, catalog.data.appName]).toEqual([instance.id.split(':')[2], 'facebook']);
    await org.call('DELETE', `${path(groupAdmin)}/targets/groups/${String(removedGroup.data.groupId)}`);
    const app = (await org.find('app', (a) => a.id === instance.data.appId))!;
    await org.call('DELETE', `${path(appAdmin)}/targets/catalog/apps/${String(app.data.name)}/${app.id}`);
    // The last one cannot go: another OIN app takes the instance's place, then facebook goes.
    await org.call('PUT', `${path(appAdmin)}/targets/catalog/apps/oidc_client`);
    await org.call('DELETE', `${path(appAdmin)}/targets/catalog/apps/facebook`);

    for (const record of [removedGroup, instance, catalog])
      await sut.apply({ action: 'create', record, with: [] });

    const live = await targets();
    for (const record of [removedGroup, instance, catalog])
      expect(live.find((t) => t.id === record.id)?.data).toEqual(record.data);
  });

  it('prunes a target added since, and never the last target of a role that stays', async () => {
    const groupAdmin = await assignment('USER_ADMIN');
    const before = await targetsOf(groupAdmin.id);
    const groups = (await org.records('group')).filter((g) => g.data.type === 'OKTA_GROUP');
    const extra = groups.find((g) => !before.some((t) => t.data.groupId === g.id))!;
    await org.call('PUT', `${path(groupAdmin)}/targets/groups/${extra.id}`);
    const added = (await targetsOf(groupAdmin.id)).find((t) => t.data.groupId === extra.id)!;
    const live = (records: ResourceRecord[]) => records.map((r) => sut.live(r));

    expect(sut.guardDeletions('admin_role_target', live([added]), live(before), NOTHING_ELSE_GOES).size).toBe(
      0,
    );
    await sut.apply({ action: 'delete', type: 'admin_role_target', live: sut.live(added) });

    expect(keys(await targetsOf(groupAdmin.id))).toEqual(keys(before));
    // A backup holding the role without targets: the prune would remove them all. It keeps them.
    const kept = sut.guardDeletions('admin_role_target', live(before), [], NOTHING_ELSE_GOES);
    expect([...kept.keys()].sort()).toEqual(before.map((t) => t.id).sort());
    expect([...kept.values()][0]).toMatch(/last target.*whole org/);
  });

  it("lets a role's targets go with the role, its holder, or when other targets remain", async () => {
    const appAdmin = await assignment('APP_ADMIN');
    const all = (await targetsOf(appAdmin.id)).map((r) => sut.live(r));
    const [ownerId] = appAdmin.id.split(':');

    for (const going of [new Set([appAdmin.id]), new Set([ownerId])])
      expect(sut.guardDeletions('admin_role_target', all, [], going).size).toBe(0);
    expect(
      sut.guardDeletions('admin_role_target', all.slice(1), all.slice(0, 1), NOTHING_ELSE_GOES).size,
    ).toBe(0);
    expect(sut.guardedTypes).toContain('admin_role_target');
  });

  it('fails a target whose group is gone, saying the role is not limited to it', async () => {
    const helpDesk = await assignment('HELP_DESK_ADMIN');
    const [target] = await targetsOf(helpDesk.id);
    const gone = {
      ...target,
      id: `${helpDesk.id}:00gmissing0000000000`,
      data: { ...target.data, groupId: '00gmissing0000000000' },
    };

    await expect(sut.apply({ action: 'create', record: gone, with: [] })).rejects.toThrow(
      /applies to what its other targets leave, or to the whole org/,
    );
    expect(sut.support('admin_role_target')).toMatchObject({ create: true, update: false, delete: true });
    expect(sut.order.indexOf('admin_role_target')).toBe(sut.order.indexOf('admin_role_assignment') + 1);
  });
});
