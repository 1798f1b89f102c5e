import { describe, expect, it } from '@jest/globals';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

type Json = Record<string, unknown>;

/** What hangs off an app (assignments, features, user schema, sign-on policy, keys, secrets) against the simulator. */
describe('app children restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const byId = (id: string) => (record: ResourceRecord) => record.id === id;
  const appOf = (record: ResourceRecord) => record.id.split(':')[0];

  useRestoreTestOrg({ users: 40, groups: 6, apps: 10, seed: 11 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('assigns a user to an app again, profile and username as backed up', async () => {
    const [backedUp] = await org.records('app_user_assignment');
    const [appId, userId] = backedUp.id.split(':');
    await org.call('POST', `/api/v1/apps/${appId}/users/${userId}`, {
      credentials: { userName: 'someone.else@example.com' },
      profile: { role: 'admin' },
    });
    const backedUpWithProfile = (await org.find('app_user_assignment', byId(backedUp.id)))!;
    await org.call('DELETE', `/api/v1/apps/${appId}/users/${userId}`);

    const result = await sut.apply({ action: 'create', record: backedUpWithProfile, with: [] });

    const restored = (await org.find('app_user_assignment', byId(result.id)))!;
    expect(restored.data).toMatchObject({ scope: 'USER', profile: { role: 'admin' } });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUpWithProfile));
  });

  it("puts back a changed assignment's profile", async () => {
    const [, backedUp] = await org.records('app_user_assignment');
    const [appId, userId] = backedUp.id.split(':');
    await org.call('POST', `/api/v1/apps/${appId}/users/${userId}`, { profile: { role: 'changed' } });
    const changed = (await org.find('app_user_assignment', byId(backedUp.id)))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(backedUp));

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    const restored = (await org.find('app_user_assignment', byId(backedUp.id)))!;
    expect(restored.data.profile).toEqual(backedUp.data.profile);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('leaves the users Okta assigns through a group to Okta, and makes a direct assignment direct again', async () => {
    const [direct] = await org.records('app_user_assignment');
    const [appId, userId] = direct.id.split(':');
    // The simulator does not assign a group's members itself: the admin call stands in for Okta
    // turning the user's assignment into one through a group (scope GROUP).
    await org.call('DELETE', `/api/v1/apps/${appId}/users/${userId}`);
    await org.call('POST', `/api/v1/apps/${appId}/users`, { id: userId, scope: 'GROUP' });
    const throughGroup = (await org.find('app_user_assignment', byId(direct.id)))!;
    expect(sut.managedBecause(throughGroup)).toMatch(/group/);
    expect(sut.managedBecause(direct)).toBeNull();

    await sut.apply({ action: 'update', record: direct, live: sut.live(throughGroup) });

    const restored = (await org.find('app_user_assignment', byId(direct.id)))!;
    expect(restored.data.scope).toBe('USER');
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(direct));
    const notes = await sut.apply({ action: 'update', record: throughGroup, live: sut.live(restored) });
    expect(notes.notes.join(' ')).toMatch(/direct assignment/);
  });

  it('assigns groups again one at a time in priority order, priorities as backed up', async () => {
    const [app] = (await org.records('app')).filter((a) => a.data.signOnMode === 'BOOKMARK');
    const groups = (await org.records('group')).filter((g) => g.data.type === 'OKTA_GROUP').slice(0, 3);
    for (const [priority, group] of groups.entries())
      await org.call('PUT', `/api/v1/apps/${app.id}/groups/${group.id}`, { priority, profile: {} });
    const backedUp = (await org.records('app_group_assignment')).filter((a) => appOf(a) === app.id);
    for (const assignment of backedUp)
      await org.call('DELETE', `/api/v1/apps/${app.id}/groups/${assignment.id.split(':')[1]}`);

    const applied = [...backedUp].reverse().sort(sut.sequence('app_group_assignment')!);
    for (const assignment of applied) await sut.apply({ action: 'create', record: assignment, with: [] });

    expect(applied.map((a) => a.data.priority)).toEqual(backedUp.map((a) => a.data.priority).sort());
    const restored = (await org.records('app_group_assignment')).filter((a) => appOf(a) === app.id);
    expect(new Map(restored.map((a) => [a.id, a.data.priority]))).toEqual(
      new Map(backedUp.map((a) => [a.id, a.data.priority])),
    );
    for (const assignment of backedUp)
      expect(sut.fingerprint(restored.find(byId(assignment.id))!)).toBe(sut.fingerprint(assignment));
  });

  it("puts back a changed group assignment's priority and profile", async () => {
    const [backedUp] = await org.records('app_group_assignment');
    const [appId, groupId] = backedUp.id.split(':');
    await org.call('PUT', `/api/v1/apps/${appId}/groups/${groupId}`, { priority: 7, profile: { role: 'x' } });
    const changed = (await org.find('app_group_assignment', byId(backedUp.id)))!;

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    const restored = (await org.find('app_group_assignment', byId(backedUp.id)))!;
    expect(restored.data).toMatchObject({ priority: backedUp.data.priority, profile: backedUp.data.profile });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('unassigns a group (prune)', async () => {
    const [assignment] = await org.records('app_group_assignment');

    await sut.apply({ action: 'delete', type: 'app_group_assignment', live: sut.live(assignment) });

    expect(await org.find('app_group_assignment', byId(assignment.id))).toBeUndefined();
  });

  it("puts back a provisioning feature's capabilities, and cannot create or delete one", async () => {
    const [backedUp] = await org.records('app_feature');
    const [appId, name] = backedUp.id.split(':');
    await org.call('PUT', `/api/v1/apps/${appId}/features/${name}`, {
      create: { lifecycleCreate: { status: 'DISABLED' } },
    });
    const changed = (await org.find('app_feature', byId(backedUp.id)))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(backedUp));

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    const restored = (await org.find('app_feature', byId(backedUp.id)))!;
    expect(restored.data.capabilities).toEqual(backedUp.data.capabilities);
    expect(sut.support('app_feature')).toMatchObject({ create: false, update: true, delete: false });
    expect(sut.support('app_feature').notes.join(' ')).toMatch(/provisioning/);
  });

  it("puts back an app's user schema: properties removed since come back, ones added go", async () => {
    const [app] = await org.records('app');
    const path = `/api/v1/meta/schemas/apps/${app.id}/default`;
    const property = (title: string) => ({
      title,
      type: 'string',
      scope: 'NONE',
      master: { type: 'PROFILE_MASTER' },
    });
    await org.call('POST', path, {
      definitions: { custom: { properties: { costCenter: property('Cost center') } } },
    });
    const backedUp = (await org.find('app_user_schema', byId(`${app.id}:default`)))!;
    await org.call('POST', path, {
      definitions: { custom: { properties: { costCenter: null, badge: property('Badge') } } },
    });
    const changed = (await org.find('app_user_schema', byId(backedUp.id)))!;

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    const restored = (await org.find('app_user_schema', byId(backedUp.id)))!;
    const custom = (restored.data.definitions as Record<string, Json>).custom.properties as Json;
    expect(Object.keys(custom)).toEqual(['costCenter']);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
    expect(sut.managedBecause(restored)).toMatch(/with the app/);
  });

  it("assigns an app's sign-on policy again: the live assignment of another policy is the one to change", async () => {
    const [backedUp] = await org.records('app_sign_on_policy');
    const appId = appOf(backedUp);
    const other = await org.call('POST', '/api/v1/policies', { type: 'ACCESS_POLICY', name: 'Relaxed apps' });
    await org.call('PUT', `/api/v1/apps/${appId}/policies/${String(other.id)}`);
    const changed = (await org.find('app_sign_on_policy', (p) => appOf(p) === appId))!;
    expect(changed.id).not.toBe(backedUp.id);
    expect(sut.naturalKey(changed)).toBe(sut.naturalKey(backedUp));

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    const restored = (await org.find('app_sign_on_policy', (p) => appOf(p) === appId))!;
    expect(restored.id).toBe(backedUp.id);
    expect(sut.support('app_sign_on_policy').delete).toBe(false);
  });

  it('assigns the backed-up sign-on policy to a re-created app', async () => {
    const [backedUp] = await org.records('app_sign_on_policy');
    const app = (await org.find('app', byId(appOf(backedUp))))!;
    await org.call('POST', `/api/v1/apps/${app.id}/lifecycle/deactivate`);
    await org.call('DELETE', `/api/v1/apps/${app.id}`);
    const created = await sut.apply({ action: 'create', record: app, with: [] });
    const record = sut.rewrite(backedUp, new Map([[app.id, created.id]]));

    const result = await sut.apply({ action: 'create', record, with: [] });

    expect(result.id).toBe(`${created.id}:${String(backedUp.data.policyId)}`);
    expect(await org.find('app_sign_on_policy', byId(result.id))).toBeDefined();
  });

  it("deletes a client secret added since the backup, deactivated first, and keeps an app's only secret", async () => {
    const [backedUp] = await org.records('app_client_secret');
    const appId = appOf(backedUp);
    const added = await org.call('POST', `/api/v1/apps/${appId}/credentials/secrets`, {});
    const addedId = `${appId}:${String(added.id)}`;
    const live = sut.live((await org.find('app_client_secret', byId(addedId)))!);
    expect(live.status).toBe('ACTIVE');

    await sut.apply({ action: 'delete', type: 'app_client_secret', live });

    expect(await org.find('app_client_secret', byId(addedId))).toBeUndefined();
    const only = sut.live(backedUp);
    expect(sut.guardDeletions('app_client_secret', [only], [], new Set())).toEqual(
      new Map([[only.id, expect.stringMatching(/only client secret/)]]),
    );
    expect(sut.guardDeletions('app_client_secret', [only], [], new Set([appId])).size).toBe(0);
    expect(sut.guardDeletions('app_client_secret', [live], [only], new Set()).size).toBe(0);
  });

  it("puts back a client secret's status; secrets and signing keys are never created, keys never deleted", async () => {
    const [backedUp] = await org.records('app_client_secret');
    const [appId, secretId] = backedUp.id.split(':');
    await org.call('POST', `/api/v1/apps/${appId}/credentials/secrets/${secretId}/lifecycle/deactivate`);
    const changed = (await org.find('app_client_secret', byId(backedUp.id)))!;

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    expect((await org.find('app_client_secret', byId(backedUp.id)))!.data.status).toBe('ACTIVE');
    expect(sut.support('app_client_secret')).toMatchObject({ create: false, update: true, delete: true });
    expect(sut.support('app_client_secret').notes.join(' ')).toMatch(/never backed up/);
    expect(sut.support('app_signing_key')).toMatchObject({ create: false, update: false, delete: false });
    expect(sut.support('app_signing_key').notes.join(' ')).toMatch(/Private keys/);
  });
});
